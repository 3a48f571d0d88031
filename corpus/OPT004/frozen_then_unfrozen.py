# A fine-tune that freezes the whole model, then trains its last block
# and a new head (rasbt's gpt_class_finetune.py): the model is trained,
# so it keeps its compile hint; the freeze alone does not make it an
# averaged copy.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(768, 12, batch_first=True) for _ in range(12))
        self.head = nn.Linear(768, 2)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, -1])


def main(loader):
    model = Net()  # want: OPT004
    for param in model.parameters():
        param.requires_grad = False
    for param in model.blocks[-1].parameters():
        param.requires_grad = True
    model.head = nn.Linear(768, 2)
    model = model.cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, fused=True)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    from data import train_loader

    main(train_loader)
