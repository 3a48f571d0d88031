"""VEC004: a target network's soft update written as a Python loop over
parameter pairs (`for tp, p in zip(target.parameters(),
net.parameters()): tp.data.copy_(tau * p.data + (1 - tau) * tp.data)`,
the SAC/TD3/DDPG idiom) against one `torch._foreach_lerp_` over the
parameter lists under torch.no_grad(). Measures the update alone and
whole update steps of the agents that write it: SAC on a MuJoCo-sized
state (two 256-wide critics and their targets, batch 256), TD3 (critics
and actor targets), DQN's Nature CNN target, and a 1024-wide SAC. Prints
median milliseconds and the speed-up, and checks that both give the
same parameters to within float rounding.

    python corpus/gpu/vec004_soft_update.py
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import pair

DEV = "cuda"
REPS = 31
STEPS = 50


def mlp(i, o, h, layers=2):
    dims = [i] + [h] * layers
    mods = []
    for a, b in zip(dims, dims[1:]):
        mods += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*mods, nn.Linear(h, o)).to(DEV)


def loop_update(target, source, tau):
    for tp, p in zip(target.parameters(), source.parameters()):
        tp.data.copy_(tau * p.data + (1.0 - tau) * tp.data)


def foreach_update(target, source, tau):
    with torch.no_grad():
        torch._foreach_lerp_(list(target.parameters()), list(source.parameters()), tau)


def same_result(net, tau=0.005):
    a, b = copy.deepcopy(net), copy.deepcopy(net)
    for m in (a, b):
        for p in m.parameters():
            p.data.mul_(0.9)
    loop_update(a, net, tau)
    foreach_update(b, net, tau)
    return max((x - y).abs().max().item() for x, y in zip(a.parameters(), b.parameters()))


def sac(h):
    obs, act, batch = 17, 6, 256
    actor = mlp(obs, 2 * act, h)
    q1, q2 = mlp(obs + act, 1, h), mlp(obs + act, 1, h)
    t1, t2 = copy.deepcopy(q1), copy.deepcopy(q2)
    qopt = torch.optim.Adam(list(q1.parameters()) + list(q2.parameters()), lr=3e-4)
    aopt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    s, a = torch.randn(batch, obs, device=DEV), torch.randn(batch, act, device=DEV)
    r, s2 = torch.randn(batch, 1, device=DEV), torch.randn(batch, obs, device=DEV)

    def policy(x):
        mu, log_std = actor(x).chunk(2, -1)
        std = log_std.clamp(-20, 2).exp()
        u = mu + std * torch.randn_like(mu)
        return torch.tanh(u), (-0.5 * ((u - mu) / std) ** 2 - log_std).sum(-1, keepdim=True)

    def step(update):
        with torch.no_grad():
            a2, logp2 = policy(s2)
            sa2 = torch.cat([s2, a2], 1)
            y = r + 0.99 * (torch.min(t1(sa2), t2(sa2)) - 0.2 * logp2)
        sa = torch.cat([s, a], 1)
        qloss = F.mse_loss(q1(sa), y) + F.mse_loss(q2(sa), y)
        qopt.zero_grad()
        qloss.backward()
        qopt.step()
        pa, logp = policy(s)
        spa = torch.cat([s, pa], 1)
        aloss = (0.2 * logp - torch.min(q1(spa), q2(spa))).mean()
        aopt.zero_grad()
        aloss.backward()
        aopt.step()
        update(t1, q1, 0.005)
        update(t2, q2, 0.005)

    return step, [q1, q2]


def td3(h):
    obs, act, batch = 17, 6, 256
    actor, q1, q2 = mlp(obs, act, h), mlp(obs + act, 1, h), mlp(obs + act, 1, h)
    ta, t1, t2 = copy.deepcopy(actor), copy.deepcopy(q1), copy.deepcopy(q2)
    qopt = torch.optim.Adam(list(q1.parameters()) + list(q2.parameters()), lr=3e-4)
    aopt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    s, a = torch.randn(batch, obs, device=DEV), torch.randn(batch, act, device=DEV)
    r, s2 = torch.randn(batch, 1, device=DEV), torch.randn(batch, obs, device=DEV)

    def step(update):
        with torch.no_grad():
            a2 = (torch.tanh(ta(s2)) + (0.2 * torch.randn_like(a)).clamp(-0.5, 0.5)).clamp(-1, 1)
            sa2 = torch.cat([s2, a2], 1)
            y = r + 0.99 * torch.min(t1(sa2), t2(sa2))
        sa = torch.cat([s, a], 1)
        qloss = F.mse_loss(q1(sa), y) + F.mse_loss(q2(sa), y)
        qopt.zero_grad()
        qloss.backward()
        qopt.step()
        aloss = -q1(torch.cat([s, torch.tanh(actor(s))], 1)).mean()
        aopt.zero_grad()
        aloss.backward()
        aopt.step()
        update(t1, q1, 0.005)
        update(t2, q2, 0.005)
        update(ta, actor, 0.005)

    return step, [q1, actor]


def dqn():
    net = nn.Sequential(
        nn.Conv2d(4, 32, 8, 4), nn.ReLU(), nn.Conv2d(32, 64, 4, 2), nn.ReLU(), nn.Conv2d(64, 64, 3, 1), nn.ReLU(),
        nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(), nn.Linear(512, 18)).to(DEV)
    target = copy.deepcopy(net)
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    s, s2 = torch.randn(32, 4, 84, 84, device=DEV), torch.randn(32, 4, 84, 84, device=DEV)
    a, r = torch.randint(0, 18, (32, 1), device=DEV), torch.randn(32, device=DEV)

    def step(update):
        with torch.no_grad():
            y = r + 0.99 * target(s2).max(1).values
        loss = F.smooth_l1_loss(net(s).gather(1, a).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        update(target, net, 0.005)

    return step, [net]


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    torch.backends.cudnn.benchmark = True
    for name, (step, nets) in [("SAC 256-wide", sac(256)), ("TD3 256-wide", td3(256)), ("DQN Nature CNN", dqn()), ("SAC 1024-wide", sac(1024))]:
        err = max(same_result(n) for n in nets)
        tensors = sum(len(list(n.parameters())) for n in nets)
        b, a = pair(lambda: [step(loop_update) for _ in range(STEPS)], lambda: [step(foreach_update) for _ in range(STEPS)], REPS)
        print(f"{name}: {tensors} parameter tensors in the updated networks; {STEPS} update steps: loop {b * 1e3:.1f} ms, "
              f"foreach_lerp_ {a * 1e3:.1f} ms, speed-up {b / a:.3f}x; max |difference| after one update {err:.2e}")
    for h in (256, 1024):
        src, tgt = mlp(23, 1, h), mlp(23, 1, h)
        b, a = pair(lambda: [loop_update(tgt, src, 0.005) for _ in range(100)], lambda: [foreach_update(tgt, src, 0.005) for _ in range(100)], REPS)
        print(f"soft update alone, one {h}-wide critic ({len(list(src.parameters()))} tensors), 100 updates: loop {b * 1e3:.2f} ms, "
              f"foreach_lerp_ {a * 1e3:.2f} ms, speed-up {b / a:.2f}x")


if __name__ == "__main__":
    main()
