# A DGCNN-style point cloud classifier whose edge convolution builds its
# graph with torch_geometric's knn_graph (blind sample S38R): the
# torch_cluster kernel behind it takes float, double and half, not bf16,
# so under a bf16 autocast the second layer's bf16 features raise "not
# implemented for 'BFloat16'". The finding stays, naming the kernels,
# and no wrap is offered.
import torch
import torch.nn as nn
from torch_geometric.nn import knn_graph


class EdgeConv(nn.Module):
    def __init__(self, cin, cout, k=20):
        super().__init__()
        self.k = k
        self.mlp = nn.Sequential(nn.Linear(2 * cin, cout), nn.ReLU(), nn.Linear(cout, cout))

    def forward(self, x, batch):
        src, dst = knn_graph(x, k=self.k, batch=batch, loop=False)
        edge = torch.cat([x[dst], x[src] - x[dst]], dim=-1)
        return torch.zeros(x.size(0), self.mlp[-1].out_features, device=x.device).index_reduce_(0, dst, self.mlp(edge), "amax")


class DGCNN(nn.Module):
    def __init__(self, classes=40):
        super().__init__()
        self.conv1 = EdgeConv(3, 512)
        self.conv2 = EdgeConv(512, 1024)
        self.head = nn.Linear(1024, classes)

    def forward(self, pos, batch):
        x = self.conv2(self.conv1(pos, batch), batch)
        return self.head(x)


model = DGCNN().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for pos, batch, y in loader:
    loss = nn.functional.cross_entropy(model(pos.cuda(), batch.cuda()), y.cuda())  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
