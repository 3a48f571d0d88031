# gpuopt-env: target-gpu=h100
# A DQN's loop: the action is chosen by a forward whose result goes to the
# host at once, and the learning step sits in an `if` of its own. The
# action selection is not the training forward: no finding there.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
q_net = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
q_opt = torch.optim.Adam(q_net.parameters(), fused=True)


def learn(env, buffer, steps):
    obs = env.reset()
    for t in range(steps):
        q_values = q_net(torch.as_tensor(obs, device=device).unsqueeze(0)).cpu()
        obs, reward, done, _ = env.step(int(q_values.argmax()))
        if t > 1000 and t % 4 == 0:
            batch = buffer.sample(32)
            loss = (q_net(batch.obs).gather(1, batch.act) - batch.target).pow(2).mean()
            q_opt.zero_grad()
            loss.backward()
            q_opt.step()
