# A one-image-at-a-time prediction script: DataParallel splits nothing here,
# and DistributedDataParallel is advice for training. Silent.
import sys

import torch
import torchvision

model = torchvision.models.resnet18()
model = torch.nn.DataParallel(model)
model.load_state_dict(torch.load(sys.argv[1]))
model.cuda()
model.eval()
with torch.no_grad():
    for path in sys.argv[2:]:
        img = torch.load(path).unsqueeze(0).cuda()
        print(model(img).argmax(1).item())
