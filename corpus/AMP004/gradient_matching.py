# Dataset condensation by gradient matching (blind sample S29C's
# DatasetCondensation-style loops): the synthetic images are learned by
# matching the network's parameter gradients on them to those on real
# data, differentiating through the synthetic gradients
# (create_graph=True). Under bf16 the matched gradients themselves
# change: AMP004 says nothing.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Conv2d(3, 512, 3, padding=1), nn.ReLU(), nn.Conv2d(512, 512, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10)).cuda()
net_parameters = list(net.parameters())
image_syn = torch.randn(100, 3, 32, 32, device="cuda", requires_grad=True)
label_syn = torch.arange(10, device="cuda").repeat_interleave(10)
optimizer_img = torch.optim.SGD([image_syn], lr=0.1, momentum=0.5)
criterion = nn.CrossEntropyLoss()


def match_loss(gw_syn, gw_real):
    return sum(((gs - gr) ** 2).sum() for gs, gr in zip(gw_syn, gw_real))


def condense(real_loader, iterations):
    for it in range(iterations):
        for img_real, lab_real in real_loader:
            img_real, lab_real = img_real.cuda(non_blocking=True), lab_real.cuda(non_blocking=True)
            loss_real = criterion(net(img_real), lab_real)
            gw_real = [g.detach() for g in torch.autograd.grad(loss_real, net_parameters)]
            loss_syn = criterion(net(image_syn), label_syn)
            gw_syn = torch.autograd.grad(loss_syn, net_parameters, create_graph=True)
            loss = match_loss(gw_syn, gw_real)
            optimizer_img.zero_grad()
            loss.backward()
            optimizer_img.step()


if __name__ == "__main__":
    from data import real_loader

    condense(real_loader, 1000)
