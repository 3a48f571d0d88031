# Seed 003, 错误1 只在模型迁移时使用device参数: the model is moved to the
# GPU, the data explicitly kept on the CPU.
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(16, 4)

    def forward(self, x):
        return self.layer1(x)


class Points(Dataset):
    def __len__(self):
        return 128

    def __getitem__(self, i):
        return torch.randn(16), i % 4


loader = DataLoader(Points(), batch_size=32)
model = Model().to('cuda')  # 仅模型在GPU
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for data, target in loader:  # want: DEV002
    data = data.to('cpu')  # 数据留在CPU → 性能灾难
    loss = nn.functional.cross_entropy(model(data), target)
    loss.backward()
    optimizer.step()
