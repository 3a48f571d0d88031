"""OPT004 on a small GPT: is torch.compile worth it on corpus/examples'
TinyGPT (4 blocks, d 256, 96-character vocabulary, batch 32 × 128
tokens), which gpuopt's narrow-network gate counts as narrow? One Adam
training step eager against compiled (default mode), in fp32 and under
bf16 autocast, at d 256 and d 512; median milliseconds, compile time
included separately.

    python corpus/gpu/opt004_tinygpt.py
"""
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from gpt_lm import TinyGPT  # noqa: E402
from timing import train_step_ms  # noqa: E402

DEV = "cuda"


class Logits(nn.Module):
    """TinyGPT's logits flattened for cross_entropy against the targets."""

    def __init__(self, n_embd):
        super().__init__()
        self.gpt = TinyGPT(96, 128, n_embd=n_embd)

    def forward(self, idx):
        logits, _ = self.gpt(idx)
        return logits.view(-1, logits.size(-1))


def main():
    print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    x = torch.randint(0, 96, (32, 128), device=DEV)
    y = torch.randint(0, 96, (32 * 128,), device=DEV)
    for n_embd in (256, 512):
        for bf16 in (False, True):
            torch.manual_seed(0)
            eager = train_step_ms(Logits(n_embd).to(DEV), x, y, F.cross_entropy, 60, bf16=bf16)
            torch.manual_seed(0)
            t0 = time.perf_counter()
            compiled = torch.compile(Logits(n_embd).to(DEV))
            train_step_ms(compiled, x, y, F.cross_entropy, 1, bf16=bf16, warmup=1)
            warm = time.perf_counter() - t0
            comp = train_step_ms(compiled, x, y, F.cross_entropy, 60, bf16=bf16)
            eager2 = train_step_ms(Logits(n_embd).to(DEV), x, y, F.cross_entropy, 60, bf16=bf16)
            eager = min(eager, eager2)
            print(f"TinyGPT d{n_embd} {'bf16' if bf16 else 'fp32'} b32x128: eager {eager:.3f} ms, "
                  f"compiled {comp:.3f} ms ({eager / comp:.2f}x, compile {warm:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
