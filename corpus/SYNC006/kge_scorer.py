# A knowledge-graph scorer that reads its constant margin with .item() in
# the scoring functions its forward dispatches to: a wait for the GPU per
# forward. Bookkeeping every log_interval steps, a NumPy value, a tensor
# drawn on the CPU, and a method the forward never reaches stay silent.
import numpy as np
import torch
import torch.nn as nn


class KGEModel(nn.Module):
    def __init__(self, n_ent, n_rel, d, gamma=12.0, log_interval=100):
        super().__init__()
        self.gamma = nn.Parameter(torch.tensor([gamma]), requires_grad=False)
        self.ent = nn.Embedding(n_ent, d)
        self.rel = nn.Embedding(n_rel, d)
        self.scale = np.array([2.0])
        self.log_interval = log_interval
        self.step_counter = 0
        self.logged = []

    def forward(self, h, r, t, model_name="TransE"):
        self.step_counter += 1
        model_func = {"TransE": self.TransE, "DistMult": self.DistMult}
        score = model_func[model_name](self.ent(h), self.rel(r), self.ent(t))
        if self.step_counter % self.log_interval == 1:
            self.logged.append(score.mean().item())
        jitter = torch.randint(5, (1,)).item()
        return score * self.scale.item() + jitter

    def TransE(self, head, relation, tail):
        return self.gamma.item() - torch.norm(head + relation - tail, p=1, dim=-1)  # want: SYNC006

    def DistMult(self, head, relation, tail):
        return (head * relation * tail).sum(dim=-1)

    def describe(self):
        return f"margin {self.gamma.item()}"


model = KGEModel(40943, 11, 500).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(1000):
    h = torch.randint(0, 40943, (1024,), device="cuda")
    r = torch.randint(0, 11, (1024,), device="cuda")
    t = torch.randint(0, 40943, (1024,), device="cuda")
    loss = -torch.nn.functional.logsigmoid(model(h, r, t)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
