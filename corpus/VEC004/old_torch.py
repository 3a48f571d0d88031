# gpuopt-env: target-gpu=h100 torch=2.0
# torch._foreach_lerp_ with a scalar weight is not relied on before torch
# 2.1: the soft update loop stays unreported.
import torch.nn as nn

critic = nn.Linear(8, 1).cuda()
critic_target = nn.Linear(8, 1).cuda()


def soft_update(tau=0.005):
    for target_param, param in zip(critic_target.parameters(), critic.parameters()):
        target_param.data.copy_(tau * param.data + (1.0 - tau) * target_param.data)
