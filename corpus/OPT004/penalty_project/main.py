# gpuopt-env: target-gpu=h100
# WGAN-GP: the Trainer of training.py takes the gradient penalty with
# create_graph=True, a double backward through the critic that compiled
# modules do not support, so OPT004 suggests no torch.compile here.
import torch
import torch.nn as nn
import torch.optim as optim

from training import Trainer

generator = nn.Sequential(nn.Linear(100, 1024), nn.ReLU(), nn.Linear(1024, 3 * 32 * 32), nn.Unflatten(1, (3, 32, 32))).cuda()
critic = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 1024), nn.LeakyReLU(0.2), nn.Linear(1024, 1)).cuda()
g_opt = optim.Adam(generator.parameters(), lr=1e-4, betas=(0.5, 0.9), fused=True)
c_opt = optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9), fused=True)
trainer = Trainer(generator, critic, g_opt, c_opt)
trainer.train([], epochs=200)
