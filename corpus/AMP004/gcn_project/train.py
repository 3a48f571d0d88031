# gpuopt-env: target-gpu=h100
# A GCN whose layer (layers.py) multiplies by the sparse adjacency with
# torch.spmm: under autocast its dense operand is bf16 and the sparse
# kernel raises NotImplementedError, so AMP004 offers no wrap and says why.
import torch
import torch.nn.functional as F

from layers import GraphConv

model = GraphConv(4096, 4096).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)


def fit(features, adj, labels, epochs=200):
    for epoch in range(epochs):
        out = model(features, adj)  # want: AMP004
        loss = F.cross_entropy(out, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
