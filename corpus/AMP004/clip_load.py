# gpuopt-env: target-gpu=h100
"""A Tip-Adapter-style probe over OpenAI CLIP: clip.load builds the model
in fp16 on a GPU, and the adapter takes its dtype, so every matmul of the
step runs in fp16 already: no autocast advice (blind sample S18P)."""
import clip
import torch
from torch import nn

clip_model, preprocess = clip.load("RN50")
adapter = nn.Linear(1024, 16000, bias=False).to(clip_model.dtype).cuda()
opt = torch.optim.AdamW(adapter.parameters(), lr=1e-3, fused=True)
for epoch in range(20):
    for _ in range(100):
        images = torch.randn(256, 3, 224, 224, device="cuda")
        with torch.no_grad():
            feats = clip_model.encode_image(images)
        logits = adapter(feats)
        loss = nn.functional.cross_entropy(logits, torch.randint(0, 16000, (256,), device="cuda"))
        opt.zero_grad()
        loss.backward()
        opt.step()
