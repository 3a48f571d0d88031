# gpuopt-env: target-gpu=h100
# A BiLSTM-CRF tagger's batch of 10 sentences, packed by length: each
# step is batch × sentence-length tokens, and the table's 512 counts
# images, so MEM005 says nothing (blind sample S15B).
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, TensorDataset

batch_size = 10
words = torch.randint(0, 20000, (14000, 40))
lengths = torch.randint(5, 40, (14000,))
loader = DataLoader(TensorDataset(words, lengths), batch_size=batch_size, shuffle=True)
embed = nn.Embedding(20000, 100).cuda()
lstm = nn.LSTM(100, 300, bidirectional=True, batch_first=True).cuda()
head = nn.Linear(600, 9).cuda()
params = list(embed.parameters()) + list(lstm.parameters()) + list(head.parameters())
optimizer = torch.optim.SGD(params, lr=0.015, momentum=0.9)
for epoch in range(200):
    for w, n in loader:
        w = w.cuda()
        packed = pack_padded_sequence(embed(w), n, batch_first=True, enforce_sorted=False)
        out, _ = pad_packed_sequence(lstm(packed)[0], batch_first=True)
        loss = head(out).logsumexp(-1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
