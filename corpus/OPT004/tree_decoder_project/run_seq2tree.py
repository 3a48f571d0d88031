import torch
import torch.nn as nn

from train_and_evaluate import train_tree, train_unrolled


class Prediction(nn.Module):
    def __init__(self, hidden=512, ops=5):
        super().__init__()
        self.score = nn.Linear(hidden, ops)
        self.goal = nn.Linear(hidden, hidden)

    def forward(self, node_stacks, left_childs, outputs):
        current = torch.cat([s[-1].embedding if s else torch.zeros_like(outputs[:1]) for s in node_stacks])
        return self.score(current), self.goal(current)


encoder = nn.Linear(512, 512).cuda()
predict = Prediction().cuda()
merge = nn.Bilinear(512, 512, 512).cuda()
cell = nn.Sequential(nn.Conv2d(16, 128, 3, padding=1), nn.ReLU(), nn.Conv2d(128, 16, 1)).cuda()  # want: OPT004
params = list(encoder.parameters()) + list(predict.parameters()) + list(merge.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3, fused=True)
cell_optimizer = torch.optim.Adam(cell.parameters(), lr=1e-3, fused=True)
for epoch in range(80):
    for batch in range(1000):
        inputs = torch.randn(64, 512, device="cuda")
        targets = torch.randint(0, 5, (64, 12), device="cuda")
        train_tree(inputs, targets, encoder, predict, merge, optimizer)
        train_unrolled(torch.randn(8, 16, 64, 64, device="cuda"), cell, cell_optimizer, 64)
