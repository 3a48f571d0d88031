# A Tacotron 2 trainer whose main guard turns benchmark mode off before
# training (blind sample S38T): the guard runs whenever the script does,
# so the choice is made, not left to a branch; its batches change length
# every step anyway. No OPT003.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv1d(80, 512, 5, padding=2), nn.ReLU(), nn.Conv1d(512, 80, 5, padding=2)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(loader, epochs):
    for epoch in range(epochs):
        for mels in loader:
            mels = mels.cuda(non_blocking=True)
            loss = (model(mels) - mels).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    torch.backends.cudnn.enabled = True
    torch.backends.cudnn.benchmark = False
    train(loader, 100)
