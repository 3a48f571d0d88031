# A vision transformer from a sibling module: its only convolution embeds
# 16×16 patches (kernel as large as its stride), once per image, where
# cudnn.benchmark has nothing to choose and channels_last nothing to
# speed up (blind sample S17H's TransFG).
import torch

from modeling import VisionTransformer

model = VisionTransformer().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=3e-2, momentum=0.9, fused=True)
for epoch in range(100):
    for x, y in train_loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
