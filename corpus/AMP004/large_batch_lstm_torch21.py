# gpuopt-env: target-gpu=h100 torch=2.1
# torch 2.1 has no torch.amp.GradScaler (2.3 and later): the fix builds
# torch.cuda.amp.GradScaler() (blind samples S39J, S39L).
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
batch_size = 256
seq_length = 30


class CharModel(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, 128)
        self.lstm = nn.LSTM(128, hidden, 1, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, h):
        y, h = self.lstm(self.embed(x), h)
        return self.out(y.reshape(-1, y.size(2))), h


# The same LSTM at batch 256: its products are large enough for bf16 to pay,
# but cuDNN runs an LSTM in fp16 under any autocast (measured on torch
# 2.11, .notes/rnn-autocast-h200.txt), which needs a GradScaler: the
# finding asks for fp16 autocast with a scaler, and its fix writes both.
model = CharModel(1000, 1024).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.002)
data = torch.randint(0, 1000, (batch_size, 3000), device=device)
for step in range(0, data.size(1) - seq_length, seq_length):
    x = data[:, step:step + seq_length]
    y = data[:, step + 1:step + 1 + seq_length]
    outputs, _ = model(x, None)  # want: AMP004
    loss = nn.functional.cross_entropy(outputs, y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
