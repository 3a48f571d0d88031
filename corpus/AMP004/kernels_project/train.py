# gpuopt-env: target-gpu=h100
# StyleGAN2's layout: the generator (model.py) runs a kernel the project
# compiles (op/fused_act.py), which takes fp32 and fp16 only. The finding
# stays; the bf16 wrap is not applied.
import torch

from model import Generator

device = "cuda"
generator = Generator().to(device)
g_optim = torch.optim.Adam(generator.parameters(), lr=2e-3, fused=True)
for i in range(1000):
    noise = torch.randn(64, 4096, device=device)
    fake = generator(noise)  # want: AMP004
    g_loss = fake.pow(2).mean()
    g_optim.zero_grad()
    g_loss.backward()
    g_optim.step()
