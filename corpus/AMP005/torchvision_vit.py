# gpuopt-env: target-gpu=h100
# A torchvision ViT: its blocks are linear layers, which TF32 speeds up.
import torch
import torch.nn.functional as F
import torchvision.models as models

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = models.vit_b_16().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
for epoch in range(90):  # want: AMP005
    for _ in range(100):
        x = torch.randn(64, 3, 224, 224, device=device)
        y = torch.randint(0, 1000, (64,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
