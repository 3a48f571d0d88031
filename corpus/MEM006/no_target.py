# No GPU known: the conversion is only a hint (tensor-core convolutions
# need compute capability 7.0).
import torch
import torchvision

net = torchvision.models.convnext_tiny().cuda()  # want: MEM006
opt = torch.optim.AdamW(net.parameters())
for step in range(10):
    x = torch.randn(32, 3, 224, 224, device="cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = net(x).float().logsumexp(1).mean()
    loss.backward()
    opt.step()
