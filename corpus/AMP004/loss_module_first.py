# gpuopt-env: target-gpu=h100
# The model comes from a module gpuopt does not see (`import model` of a
# project module, then `net = model.NCF(...)`), the losses are nn modules:
# the forward to wrap is the call that produces the loss's input, not the
# loss. The evaluation loop's `net` is a parameter, known as a model by
# the name its call site passes (`net.parameters()` go to the optimizer):
# its forward, not the loss passed beside it, is what the hint wraps.
import torch
import torch.nn as nn

import model

net = model.NCF(1000, 1000, 32)
net.cuda()
loss_function = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, fused=True)
evaluateL2 = nn.MSELoss()
evaluateL2 = evaluateL2.cuda()
train_loader = torch.utils.data.DataLoader(None, batch_size=256)
test_loader = torch.utils.data.DataLoader(None, batch_size=256)


def evaluate(loader, net, evaluateL2):
    net.eval()
    total = 0.0
    with torch.no_grad():
        for user, item, label in loader:
            prediction = net(user.cuda(), item.cuda())
            total += evaluateL2(prediction, label.cuda()).item()
    return total


for epoch in range(10):
    net.train()
    for user, item, label in train_loader:
        user, item, label = user.cuda(), item.cuda(), label.float().cuda()
        net.zero_grad()
        prediction = net(user, item)  # want: AMP004
        scale = label.new_ones(label.shape).expand_as(label)
        loss = loss_function(prediction * scale, label)
        loss.backward()
        optimizer.step()
    print(evaluate(test_loader, net, evaluateL2))
