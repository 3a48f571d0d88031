# Mixed precision through apex.amp (O1 patches torch's functions, O2
# casts the model in place): torch.compile is no drop-in until the script
# moves to torch.autocast, so OPT004 says nothing here (blind samples
# S17A's SwAV, S18H's PANDA solution).
import torch
import torchvision
from apex import amp

model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
for epoch in range(90):
    for step in range(1000):
        x = torch.randn(64, 3, 224, 224, device="cuda")
        y = torch.randint(0, 1000, (64,), device="cuda")
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        with amp.scale_loss(loss, optimizer) as scaled:
            scaled.backward()
        optimizer.step()
