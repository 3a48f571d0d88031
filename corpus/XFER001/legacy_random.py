# Random tensors drawn in place on a legacy constructor and copied to the
# GPU every step (blind sample S37A's CQL-SAC: random actions for the
# conservative penalty). The fix draws them on the device (unsafe: the
# numbers come from the CUDA generator). A constructor given data is a
# copy of that data, and stays.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
critic = nn.Sequential(nn.Linear(23, 256), nn.ReLU(), nn.Linear(256, 1)).to(device)
optimizer = torch.optim.Adam(critic.parameters(), lr=3e-4, fused=True)


def update(sample, steps, num_repeat=10):
    for step in range(steps):
        obs, act = sample()
        obs, act = obs.to(device), act.to(device)
        random_actions = torch.FloatTensor(obs.shape[0] * num_repeat, act.shape[-1]).uniform_(-1, 1).to(device)  # want: XFER001
        jitter = torch.FloatTensor(obs.shape[0], act.shape[-1]).normal_(0, 0.1).to(device)  # want: XFER001
        weights = torch.FloatTensor([0.5, 0.5]).to(device)
        q_rand = critic(torch.cat([obs.repeat(num_repeat, 1), random_actions], 1))
        q_data = critic(torch.cat([obs, act + jitter], 1))
        loss = weights[0] * torch.logsumexp(q_rand, 0).mean() - weights[1] * q_data.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
