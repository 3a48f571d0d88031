# gpuopt-env: target-gpu=h100
# A language model's "batch" is the number of text streams the corpus is
# cut into (batchify): part of the recipe, tuned with its learning rate
# (SGD at lr 30 here), not a default to raise. Silent.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
batch_size = 20
bptt = 35


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous().to(device)


corpus = torch.randint(0, 1000, (100000,))
train_data = batchify(corpus, batch_size)
model = nn.Sequential(nn.Embedding(1000, 400), nn.Linear(400, 1000)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=30)
for epoch in range(3):
    for i in range(0, train_data.size(0) - 1, bptt):
        x, y = train_data[i : i + bptt], train_data[i + 1 : i + 1 + bptt]
        loss = nn.functional.cross_entropy(model(x).view(-1, 1000), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
