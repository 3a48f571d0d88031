"""SYNC006: `.item()` inside a module's forward. A RotatE-style knowledge
graph scorer (DeepGraphLearning's KnowledgeGraphEmbedding) reads its
constant margin and embedding range with `.item()` three times per
forward; the same forward with the values kept as Python numbers read
once in __init__. Training steps of batch 1024 with 256 negatives, d 500,
Adam; each pair alternates (timing.pair).

    python corpus/gpu/sync006_item_in_forward.py
"""
import torch
import torch.nn as nn

from timing import pair

DEV = "cuda"


class Scorer(nn.Module):
    def __init__(self, n_ent, n_rel, d, gamma=12.0, host_numbers=False):
        super().__init__()
        self.gamma = nn.Parameter(torch.tensor([gamma]), requires_grad=False)
        self.embedding_range = nn.Parameter(torch.tensor([(gamma + 2.0) / d]), requires_grad=False)
        self.ent = nn.Parameter(torch.empty(n_ent, d).uniform_(-0.1, 0.1))
        self.rel = nn.Parameter(torch.empty(n_rel, d).uniform_(-0.1, 0.1))
        self.host_numbers = host_numbers
        self.gamma_value = gamma
        self.range_value = (gamma + 2.0) / d

    def forward(self, h, r, t):
        pi = 3.14159262358979323846
        rng = self.range_value if self.host_numbers else self.embedding_range.item()
        gamma = self.gamma_value if self.host_numbers else self.gamma.item()
        ph = self.ent[h] / (rng / pi)
        pr = self.rel[r] / (rng / pi)
        pt = self.ent[t] / ((self.range_value if self.host_numbers else self.embedding_range.item()) / pi)
        score = torch.abs(torch.sin(ph.unsqueeze(1) + pr.unsqueeze(1) - pt))
        return gamma - score.sum(dim=2)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    torch.manual_seed(0)
    n_ent, n_rel, d, batch, neg = 40943, 11, 500, 1024, 256
    h = torch.randint(0, n_ent, (batch,), device=DEV)
    r = torch.randint(0, n_rel, (batch,), device=DEV)
    t = torch.randint(0, n_ent, (batch, neg), device=DEV)
    for d_model, b in ((500, 1024), (200, 128)):
        models = [Scorer(n_ent, n_rel, d_model, host_numbers=k).to(DEV) for k in (False, True)]
        opts = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
        hb, rb, tb = h[:b], r[:b], t[:b]

        def steps(i):
            def run():
                for _ in range(20):
                    loss = -torch.nn.functional.logsigmoid(models[i](hb, rb, tb)).mean()
                    opts[i].zero_grad()
                    loss.backward()
                    opts[i].step()
            return run

        before, after = pair(steps(0), steps(1), 15, warmup=3)
        print(f"d {d_model}, batch {b} x {neg} negatives: .item() in forward {before * 1e3 / 20:.3f} ms/step, "
              f"host numbers {after * 1e3 / 20:.3f} ms/step, speed-up {before / after:.2f}x", flush=True)


if __name__ == "__main__":
    main()
