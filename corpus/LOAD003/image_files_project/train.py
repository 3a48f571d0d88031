# Loaders over folders of image files, one decoded per item, feeding a
# ResNet: an epoch runs for minutes, next to which restarting the
# workers (about 18 ms each) is under 1%, so LOAD003 stays silent (blind
# samples S24D's IRN and CCAM, S25F's dehazing nets, S26G's image
# compression models). The in-memory validation set is one of a few
# hundred samples whose short epochs keep the finding.
import torch
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader, TensorDataset

from datasets import Birds, LabelledImages


def main(names, paths, labels):
    model = torchvision.models.resnet50(num_classes=200).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    voc = DataLoader(LabelledImages(names, "/data/voc", labels), batch_size=16, shuffle=True, num_workers=8, pin_memory=True)
    birds = DataLoader(Birds(paths, labels), batch_size=16, shuffle=True, num_workers=8, pin_memory=True)
    held_out = DataLoader(TensorDataset(torch.randn(256, 3, 64, 64), torch.randint(0, 200, (256,))), batch_size=64, num_workers=2, pin_memory=True)  # want: LOAD003
    for epoch in range(100):
        for x, y in voc:
            loss = F.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
            opt.zero_grad()
            loss.backward()
            opt.step()
        for x, y in birds:
            loss = F.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            for x, y in held_out:
                model(x.cuda(non_blocking=True))
