import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.AdamW(model.parameters())
loader = DataLoader(list(range(10)), batch_size=2)
loss_fn = nn.MSELoss()

# The kept losses are backpropagated later: detaching would break that.
losses = []
for x, y in loader:
    loss = loss_fn(model(x), y)
    losses.append(loss)
torch.stack(losses).mean().backward()

# retain_graph: the graph stays usable.
kept = []
for x, y in loader:
    loss = loss_fn(model(x), y)
    loss.backward(retain_graph=True)
    optimizer.step()
    kept.append(loss)

# A list that lives for one step only.
for x, y in loader:
    step_losses = []
    loss = loss_fn(model(x), y)
    loss.backward()
    step_losses.append(loss)
    optimizer.step()

# Outputs are not the loss.
outs = []
for x, y in loader:
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward()
    outs.append(out.argmax(-1))


# The loss is turned into a NumPy number before it is summed: no graph is
# kept, and .detach() on the array would raise. Silent.
loss_accum = 0
for x, y in loader:
    out = model(x)
    loss = (out - y).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    loss = loss.detach().cpu().numpy()
    loss_accum += loss

