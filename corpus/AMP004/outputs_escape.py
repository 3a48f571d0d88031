# gpuopt-env: target-gpu=h100
# An evaluation loop that keeps its outputs (for PCA/t-SNE afterwards), and a
# training loop whose last prediction is plotted after it: under autocast
# they would leave the loop in bf16, which NumPy and scikit-learn refuse. The
# findings stay, without the wrap; converting with .float() where they are
# kept comes first. The loss, computed in fp32 by autocast, may be kept.
# The evaluation loop joins the training step's finding, which says why
# it is not wrapped.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
data = [(torch.randn(256, 4096, device="cuda"), torch.randint(0, 10, (256,), device="cuda")) for _ in range(4)]

losses = []
for x, y in data:
    y_pred = model(x)  # want: AMP004
    loss = nn.functional.cross_entropy(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss)
print(y_pred.detach().cpu().numpy().shape)


def embed():
    model.eval()
    outputs = []
    with torch.no_grad():
        for x, y in data:
            out = model(x)
            outputs.append(out.cpu())
    return torch.cat(outputs).numpy()


for epoch in range(3):
    features = embed()

# SSD's loop frees its outputs after the loop (`del`): not a use in bf16.
for x, y in data:
    predicted = model(x)  # want: AMP004
    loss = nn.functional.cross_entropy(predicted, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
del predicted, loss
