# test() was switched off with a `return` at the top of its body: the old
# loop below never runs, so nothing is reported there (blind sample S14E's
# pruning script). train() still runs its loop.
import torch

model = torch.nn.Linear(4096, 4096).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def test(loader):
    return
    correct = 0.0
    for x, y in loader:
        out = model(x.cuda())
        correct += (out.argmax(1) == y.cuda()).sum().item()
    print(correct)


def train(loader):
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()  # want: SYNC002
    print(total)
