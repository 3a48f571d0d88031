"""CACHE001's premise on an H100: what does rebuilding positions and a
causal mask in every forward cost, against slicing cached buffers?

Three GPT-style models (nanoGPT's layout: learned positions, causal
self-attention, the mask built per forward or sliced from a buffer) are
trained one step at a time, each variant alternating with the cached one
(timing.pair). Variants: positions with torch.arange(T, device=...) (the
nanoGPT/minGPT/makemore idiom), positions with torch.arange(T) built on
the host and copied (`.to(device)`), and the causal mask
torch.tril(torch.ones(T, T)) built on the host and copied, or built on
the device.

    python corpus/gpu/cache001_arange.py [VARIANT...]
"""
import sys
import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import pair

DEV = "cuda"


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.heads = heads

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (k.size(-1) ** -0.5)
        att = F.softmax(att.masked_fill(mask[:T, :T] == 0, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, d, layers, heads, block, variant):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(block, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab)
        self.variant = variant
        self.register_buffer("positions", torch.arange(block), persistent=False)
        self.register_buffer("mask", torch.tril(torch.ones(block, block)), persistent=False)

    def forward(self, idx):
        T = idx.size(1)
        mask = self.mask
        if self.variant == "arange-device":
            pos = torch.arange(0, T, dtype=torch.long, device=idx.device)
        elif self.variant == "arange-host":
            pos = torch.arange(0, T, dtype=torch.long).to(idx.device)
        elif self.variant == "mask-host":
            pos = self.positions[:T]
            mask = torch.tril(torch.ones(T, T)).to(idx.device)
        elif self.variant == "mask-device":
            pos = self.positions[:T]
            mask = torch.tril(torch.ones(T, T, device=idx.device))
        else:  # cached
            pos = self.positions[:T]
        x = self.tok(idx) + self.pos(pos)
        for b in self.blocks:
            x = b(x, mask)
        return self.head(x)


def step_fn(model, idx, opt):
    def step():
        opt.zero_grad(set_to_none=True)
        logits = model(idx)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), idx.view(-1))
        loss.backward()
        opt.step()
    return step


CONFIGS = [
    # name, vocab, d, layers, heads, T, batch
    ("makemore-size (d 64, 4 layers, T 16, b32)", 27, 64, 4, 4, 16, 32),
    ("nanoGPT shakespeare-char (d 384, 6 layers, T 256, b64)", 65, 384, 6, 6, 256, 64),
    ("GPT-2 small (d 768, 12 layers, T 1024, b8)", 50304, 768, 12, 12, 1024, 8),
]


VARIANTS = tuple(sys.argv[1:]) or ("arange-device", "arange-host", "mask-host", "mask-device")


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    for name, vocab, d, layers, heads, T, batch in CONFIGS:
        torch.manual_seed(0)
        idx = torch.randint(0, vocab, (batch, T), device=DEV)
        models = {}
        for v in ("cached",) + VARIANTS:
            torch.manual_seed(0)
            m = GPT(vocab, d, layers, heads, T, v).to(DEV)
            models[v] = (m, step_fn(m, idx, torch.optim.AdamW(m.parameters(), lr=1e-4)))
        reps = 200 if d <= 384 else 40
        for v in VARIANTS:
            before, after = pair(models[v][1], models["cached"][1], reps, warmup=10)
            print(f"{name}: {v} {before * 1e3:.3f} ms/step, cached {after * 1e3:.3f} ms/step, "
                  f"speed-up {before / after:.3f}x", flush=True)


if __name__ == "__main__":
    main()
