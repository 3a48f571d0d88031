# gpuopt-env: torch=2.4
# DQN: the target network only runs under torch.no_grad() and takes its
# weights by copy; only the Q-network is trained, and only it is reported.
import torch
from torch import nn

device = torch.device("cuda")
q_network = nn.Sequential(nn.Linear(4, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 2)).to(device)  # want: OPT004
optimizer = torch.optim.Adam(q_network.parameters(), lr=2.5e-4, fused=True)
target_network = nn.Sequential(nn.Linear(4, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 2)).to(device)
target_network.load_state_dict(q_network.state_dict())

for global_step in range(10000):
    obs = torch.randn(128, 4, device=device)
    next_obs = torch.randn(128, 4, device=device)
    with torch.no_grad():
        target_max, _ = target_network(next_obs).max(dim=1)
        td_target = 1.0 + 0.99 * target_max
    old_val = q_network(obs).max(dim=1).values
    loss = nn.functional.mse_loss(td_target, old_val)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
