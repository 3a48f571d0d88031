# gpuopt-env: target-gpu=h100
# A Gym agent's convolutional policy: each update waits for the
# environment's steps, and the network sees one observation shape, where
# benchmark mode measured no gain: OPT003 stays silent (blind sample S15A's
# PPO car racer).
import gym
import torch
import torch.nn as nn

env = gym.make("CarRacing-v2")
net = nn.Sequential(nn.Conv2d(4, 8, 4, stride=2), nn.ReLU(), nn.Conv2d(8, 16, 3, stride=2), nn.ReLU(),
                    nn.Flatten(), nn.LazyLinear(3)).cuda()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
for episode in range(1000):
    state = env.reset()
    for t in range(1000):
        x = torch.as_tensor(state, dtype=torch.float32, device="cuda").permute(2, 0, 1)[None, :4]
        action = net(x).squeeze(0).tanh()
        state, reward, done, info = env.step(action.detach().cpu().numpy())
        loss = -(action.sum() * reward)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if done:
            break
