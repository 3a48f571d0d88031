# gpuopt-env: target-gpu=h100
# The model is cast to bf16 (the default dtype on a GPU that supports it):
# its matmuls are not fp32, so TF32 has nothing to speed up. Silent.
import argparse

import torch
from transformers import AutoConfig, AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--dtype", default="bfloat16" if torch.cuda.is_bf16_supported() else "float32")
args = parser.parse_args()

device = torch.device("cuda")
model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained("gpt2"))
if args.dtype in ["bf16", "bfloat16"]:
    model = model.to(device=device, dtype=torch.bfloat16)
else:
    model = model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

for step in range(10000):
    input_ids = torch.randint(0, 50257, (8, 1024), device=device)
    loss = model(input_ids=input_ids, labels=input_ids).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
