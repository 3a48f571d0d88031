"""A character-level GPT trained with gradient accumulation.

Written the way many small language-model repos were before PyTorch 2.3:
mixed precision through torch.cuda.amp, a causal mask rebuilt on every
forward, and a loss that is accumulated without being averaged.
This file uses CRLF line endings; the fixes must keep them.
"""
import math
import os

import torch
import torch.nn as nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, Dataset
from torch.cuda.amp import autocast, GradScaler


class CharDataset(Dataset):
    """Fixed-length windows over a random token stream."""

    def __init__(self, n_tokens, block_size, vocab_size):
        self.data = torch.randint(0, vocab_size, (n_tokens,))
        self.block_size = block_size

    def __len__(self):
        return len(self.data) - self.block_size - 1

    def __getitem__(self, i):
        chunk = self.data[i:i + self.block_size + 1]
        return chunk[:-1], chunk[1:]


class SelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        assert n_embd % n_head == 0
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        # scale kept as a tensor so it can be logged with the weights
        self.scale = torch.tensor(1.0 / math.sqrt(n_embd // n_head))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * self.scale.to(x.device)
        # causal mask: position t may only look at positions <= t
        mask = torch.triu(torch.ones(T, T, device=x.device), diagonal=1).bool()
        att = att.masked_fill(mask, float('-inf'))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.attn = SelfAttention(n_embd, n_head)
        self.ln2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab_size, block_size, n_layer=4, n_embd=256, n_head=4):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)  # (t,)
        x = self.tok_emb(idx) + self.pos_emb(pos)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


def main():
    device = 'cuda'
    block_size, vocab_size = 128, 96
    batch_size = 32
    grad_accum_steps = 4  # effective batch = 4 * 32
    max_iters = int(os.environ.get("MAX_ITERS", 200))

    train_set = CharDataset(100_000, block_size, vocab_size)
    loader = DataLoader(train_set, batch_size=batch_size, shuffle=True,
                        num_workers=4, pin_memory=True)

    model = TinyGPT(vocab_size, block_size).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1)
    scaler = GradScaler()

    window = 50 * grad_accum_steps
    step = 0
    running = torch.zeros(1).to(device)
    for epoch in range(1000):
        for it, (xb, yb) in enumerate(loader):
            xb, yb = xb.to(device), yb.to(device)
            with autocast(dtype=torch.float16):
                _, loss = model(xb, yb)
            scaler.scale(loss).backward()
            running += loss.detach()
            if (it + 1) % grad_accum_steps == 0:
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                if step % 50 == 0:
                    print(f"step {step}: summed loss {running.item():.2f} over {window} micro-batches")
                    running.zero_()
            if step >= max_iters:
                break
        if step >= max_iters:
            break


if __name__ == "__main__":
    main()
