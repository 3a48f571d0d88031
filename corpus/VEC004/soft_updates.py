# Soft updates of target networks written as loops over parameter pairs,
# in the spellings of SAC, TD3, DDPG and Spinning Up agents and of EMA
# teachers: each becomes one torch._foreach_lerp_ under no_grad (unsafe:
# lerp rounds differently in the last bit). A hard copy, a loop that
# does more than the update, and a loop whose variables are read after
# it keep their shape.
import torch
import torch.nn as nn


def soft_update(target, source, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):  # want: VEC004
        target_param.data.copy_(tau * param.data + (1.0 - tau) * target_param.data)


def hard_update(target, source):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(param.data)


class Agent:
    def __init__(self, obs_dim, act_dim, tau=0.005, polyak=0.995):
        self.critic = nn.Sequential(nn.Linear(obs_dim + act_dim, 256), nn.ReLU(), nn.Linear(256, 1)).cuda()
        self.critic_target = nn.Sequential(nn.Linear(obs_dim + act_dim, 256), nn.ReLU(), nn.Linear(256, 1)).cuda()
        self.tau = tau
        self.polyak = polyak

    def update_target(self):
        for param, target_param in zip(self.critic.parameters(), self.critic_target.parameters()):  # want: VEC004
            target_param.data.copy_(target_param.data * (1 - self.tau) + param.data * self.tau)

    def polyak_update(self):
        with torch.no_grad():
            for p, p_targ in zip(self.critic.parameters(), self.critic_target.parameters()):  # want: VEC004
                p_targ.data.mul_(self.polyak)
                p_targ.data.add_((1 - self.polyak) * p.data)

    def ema_update(self, decay=0.999):
        for ema_p, p in zip(self.critic_target.parameters(), self.critic.parameters()):  # want: VEC004
            ema_p.data.mul_(decay).add_(p.data, alpha=1 - decay)

    def clipped_update(self):
        for p, p_targ in zip(self.critic.parameters(), self.critic_target.parameters()):
            p_targ.data.copy_(self.tau * p.data + (1 - self.tau) * p_targ.data)
            p_targ.data.clamp_(-1.0, 1.0)

    def last_pair(self):
        for param, target_param in zip(self.critic.parameters(), self.critic_target.parameters()):  # want: VEC004
            target_param.data.copy_(self.tau * param.data + (1 - self.tau) * target_param.data)
        return target_param.shape
