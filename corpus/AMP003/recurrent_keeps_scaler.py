# gpuopt-env: target-gpu=h100
# fp16 autocast with a GradScaler around an LSTM language model: switching
# to bf16 and turning the scaler off would leave the LSTM in fp16 without
# loss scaling, since cuDNN's RNN autocast casts to fp16 whatever dtype the
# region asks for (torch 2.11 on an H200, .notes/rnn-autocast-h200.txt).
# Keeping the scaler keeps fp16 and leaves the switch nothing to gain: no
# AMP003 (blind sample S31C judged such a finding self-cancelling).
import torch
import torch.nn as nn


class CharLSTM(nn.Module):
    def __init__(self, vocab=256, hidden=1024):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden, num_layers=2, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x):
        y, _ = self.lstm(self.embed(x))
        return self.out(y)


model = CharLSTM().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)
scaler = torch.amp.GradScaler("cuda")


def train(batches):
    for x, y in batches:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten())
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
