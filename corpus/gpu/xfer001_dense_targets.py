"""XFER001 on a dense target matrix built with NumPy on the host every
step and copied to the GPU (the 1-N scoring of ConvE, TuckER and HypER:
`targets = np.zeros((batch, n_entities))`, ones set per row, then
`torch.FloatTensor(targets).cuda()`), against the same matrix made with
`torch.zeros(..., device=...)` and filled there through index tensors.

A TuckER-like step (entity embeddings of d 200, a 1-N score against every
entity, BCE against the targets, Adam) at batch 128, for 14,541 entities
(FB15k-237) and 40,943 (WN18RR); the Python loop that lists each row's
true entities runs in both versions. Each pair alternates (timing.pair).

    python corpus/gpu/xfer001_dense_targets.py
"""
import numpy as np
import torch

from timing import pair

DEV = "cuda"


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    rng = np.random.default_rng(0)
    for n_entities in (14541, 40943):
        batch, d = 128, 200
        ent = torch.nn.Embedding(n_entities, d).to(DEV)
        rel = torch.nn.Embedding(237, d * d // 100).to(DEV)
        proj = torch.nn.Linear(d + d * d // 100, d).to(DEV)
        opt = torch.optim.Adam(list(ent.parameters()) + list(rel.parameters()) + list(proj.parameters()), lr=1e-3)
        # each (head, relation) pair has a few true tails, as in the datasets
        true_tails = [rng.integers(0, n_entities, size=rng.integers(1, 8)).tolist() for _ in range(batch)]
        heads = torch.randint(0, n_entities, (batch,), device=DEV)
        rels = torch.randint(0, 237, (batch,), device=DEV)

        def step(targets):
            x = proj(torch.cat([ent(heads), rel(rels)], 1))
            scores = torch.sigmoid(x @ ent.weight.t())
            loss = torch.nn.functional.binary_cross_entropy(scores, targets)
            opt.zero_grad()
            loss.backward()
            opt.step()

        def host_targets():
            for _ in range(10):
                targets = np.zeros((batch, n_entities))
                for i, tails in enumerate(true_tails):
                    targets[i, tails] = 1.0
                step(torch.FloatTensor(targets).cuda())

        def device_targets():
            for _ in range(10):
                targets = torch.zeros(batch, n_entities, device=DEV)
                rows = [i for i, tails in enumerate(true_tails) for _ in tails]
                cols = [t for tails in true_tails for t in tails]
                targets[torch.tensor(rows, device=DEV), torch.tensor(cols, device=DEV)] = 1.0
                step(targets)

        before, after = pair(host_targets, device_targets, 20, warmup=3)
        print(f"{n_entities} entities, batch {batch}: host-built targets {before * 1e3 / 10:.2f} ms/step, "
              f"device-built {after * 1e3 / 10:.2f} ms/step, speed-up {before / after:.2f}x", flush=True)


if __name__ == "__main__":
    main()
