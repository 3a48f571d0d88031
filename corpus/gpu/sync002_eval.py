"""SYNC002 in evaluation loops: `total += loss.item()` on every batch of
a no-grad pass against accumulating on the device and reading once after
it. The loops are the shapes SYNC002 reports in evaluation code: a
GPT-2-small-sized language model over a main-process DataLoader of token
chunks, the word-language-model example's Transformer over slices of one
tensor, a small LSTM classifier over a DataLoader, and a ResNet-18 over
an image DataLoader that converts each sample on the CPU. Prints the
median pass times and the speed-up of accumulating on the device.

    python corpus/gpu/sync002_eval.py
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader, Dataset, TensorDataset

from timing import pair

DEV = "cuda"
REPS = 9


class TinyGPT(nn.Module):
    def __init__(self, vocab, d, layers, heads, ctx):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, x):
        t = x.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=x.device)
        h = self.tok(x) + self.pos(torch.arange(t, device=x.device))
        return self.head(self.blocks(h, mask=mask, is_causal=True))


class Images(Dataset):
    def __init__(self, n):
        self.x = np.random.default_rng(0).integers(0, 256, (n, 3, 64, 64), dtype=np.uint8)
        self.y = np.random.default_rng(1).integers(0, 10, n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i].astype(np.float32) / 255.0), int(self.y[i])


class LSTMClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.rnn, self.out = nn.Embedding(5000, 128), nn.LSTM(128, 128, batch_first=True), nn.Linear(128, 20)

    def forward(self, x):
        _, (h, _) = self.rnn(self.emb(x))
        return self.out(h[-1])


def compare(name, model, batches, loss_of):
    model = model.to(DEV).eval()

    def run(on_device):
        total = torch.zeros((), device=DEV, dtype=torch.float64) if on_device else 0.0
        with torch.no_grad():
            for batch in batches():
                loss = loss_of(model, batch)
                total += loss.detach() if on_device else loss.item()
        return float(total)

    before, after = pair(lambda: run(False), lambda: run(True), REPS, warmup=1)
    print(f"{name}: .item() per batch {before * 1e3:.1f} ms, on device {after * 1e3:.1f} ms, speed-up {before / after:.3f}x", flush=True)


def main():
    print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    tokens = torch.randint(0, 50257, (8 * 20, 257))
    gpt_loader = DataLoader(TensorDataset(tokens[:, :-1], tokens[:, 1:]), batch_size=8)

    def lm_loss(m, b):
        x, y = b[0].to(DEV), b[1].to(DEV)
        return F.cross_entropy(m(x).flatten(0, 1), y.flatten())

    compare("GPT-2-small-sized LM (12x768, ctx 256, batch 8), 20 batches, DataLoader", TinyGPT(50257, 768, 12, 12, 256), lambda: gpt_loader, lm_loss)

    data = torch.randint(0, 33278, (2000, 10)).to(DEV)

    def wlm_batches():
        for i in range(0, data.size(0) - 1, 35):
            yield data[i:i + 35].t(), data[i + 1:i + 36].t()

    def wlm_loss(m, b):
        x, y = b
        n = min(x.shape[1], y.shape[1])
        return n * F.cross_entropy(m(x[:, :n]).flatten(0, 1), y[:, :n].flatten())

    compare("word-language-model Transformer at its defaults (2x200), eval batch 10, bptt 35", TinyGPT(33278, 200, 2, 2, 64), wlm_batches, wlm_loss)
    compare("word-language-model Transformer 6x512, eval batch 10, bptt 35", TinyGPT(33278, 512, 6, 8, 64), wlm_batches, wlm_loss)

    text = DataLoader(TensorDataset(torch.randint(0, 5000, (32 * 60, 40)), torch.randint(0, 20, (32 * 60,))), batch_size=32)

    def cls_loss(m, b):
        return F.cross_entropy(m(b[0].to(DEV)), b[1].to(DEV))

    compare("LSTM classifier (hidden 128, batch 32), 60 batches", LSTMClassifier(), lambda: text, cls_loss)
    images = DataLoader(Images(64 * 30), batch_size=64)
    compare("ResNet-18 at 64x64, batch 64, 30 batches, per-sample CPU conversion", torchvision.models.resnet18(num_classes=10), lambda: images, cls_loss)


if __name__ == "__main__":
    main()
