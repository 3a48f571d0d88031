# A pitch extractor with two LSTMs (blind sample S32R's JDCNet), built by
# the entry script and handed to the trainer.
import torch.nn as nn


class JDCNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 64, 3, padding=1)
        self.bilstm = nn.LSTM(64 * 80, 256, batch_first=True, bidirectional=True)

    def forward(self, mel):
        h = self.conv(mel.unsqueeze(1)).permute(0, 3, 1, 2).flatten(2)
        out, _ = self.bilstm(h)
        return out
