"""AMP004's narrow-network gate: fp32 against bf16 autocast, one training
step at a time, for networks of the sizes real RL, TCN and small-vision
code builds.

Each line prints the median step time of both and the speed-up; the
gate's thresholds (patterns/amp004_narrow_network.go) cite these lines.

    python corpus/gpu/amp004_narrow.py        # all but the GANs
    python corpus/gpu/amp004_narrow.py gan    # the MNIST GAN pair
    python corpus/gpu/amp004_narrow.py rnn    # small GRU/LSTM forecasters, NCF
    python corpus/gpu/amp004_narrow.py wide   # MLPs of 2048 and 4096 at common batches
    python corpus/gpu/amp004_narrow.py wide-tf32   # the same, TF32 matmuls (AMP005)
    python corpus/gpu/amp004_narrow.py transformer # small encoders: bf16 and TF32
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import train_step_ms

DEV = "cuda"


class Chomp(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        return x[:, :, : -self.n].contiguous()


def tcn(cin, width, levels, k):
    layers, c = [], cin
    for i in range(levels):
        d = 2**i
        pad = (k - 1) * d
        layers += [nn.Conv1d(c, width, k, padding=pad, dilation=d), Chomp(pad), nn.ReLU(),
                   nn.Conv1d(width, width, k, padding=pad, dilation=d), Chomp(pad), nn.ReLU()]
        c = width
    return nn.Sequential(*layers)


class TCNHead(nn.Module):
    def __init__(self, cin, width, levels, k, out):
        super().__init__()
        self.body = tcn(cin, width, levels, k)
        self.head = nn.Linear(width, out)

    def forward(self, x):
        return self.head(self.body(x)[:, :, -1])


def nature_cnn(actions=6):
    return nn.Sequential(
        nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(), nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
        nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(), nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(),
        nn.Linear(512, actions))


def mlp(sizes):
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def conv_net(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(2 * width * 8 * 8, 10))


class MnistGenerator(nn.Module):
    """The MNIST generator of a common GAN collection: 62 → 1024 → 128×7×7,
    then transposed convolutions of 64 and 1 channels."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(62, 1024), nn.BatchNorm1d(1024), nn.ReLU(),
                                nn.Linear(1024, 128 * 7 * 7), nn.BatchNorm1d(128 * 7 * 7), nn.ReLU())
        self.deconv = nn.Sequential(nn.ConvTranspose2d(128, 64, 4, 2, 1), nn.BatchNorm2d(64), nn.ReLU(),
                                    nn.ConvTranspose2d(64, 1, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.deconv(self.fc(z).view(-1, 128, 7, 7))


def mnist_discriminator():
    """Its discriminator: convolutions of 64 and 128 channels, 6272 → 1024 → 1."""
    return nn.Sequential(nn.Conv2d(1, 64, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 128, 4, 2, 1),
                         nn.BatchNorm2d(128), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(128 * 7 * 7, 1024),
                         nn.BatchNorm1d(1024), nn.LeakyReLU(0.2), nn.Linear(1024, 1))


def gans():
    """The GAN collection's networks at its batch of 64 (blind sample HH)."""
    x = torch.randn(64, 62, device=DEV)
    y = torch.randn(64, 1, 28, 28, device=DEV)
    measure("mnist gan generator 62-1024-6272 + deconv 64/1 b64", MnistGenerator, x, y, F.mse_loss)
    x = torch.randn(64, 1, 28, 28, device=DEV)
    y = torch.rand(64, 1, device=DEV)
    measure("mnist gan discriminator conv 64/128 + 6272-1024-1 b64", mnist_discriminator, x, y,
            F.binary_cross_entropy_with_logits)


class Recurrent(nn.Module):
    """A forecaster of the LSTNet / sequence-regression kind: a recurrent
    layer over the window, its last state to a linear output."""

    def __init__(self, cell, features, hidden, out):
        super().__init__()
        self.rnn = cell(features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, out)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.head(h[:, -1])


class NCF(nn.Module):
    """Neural collaborative filtering (NeuMF): GMF and MLP embeddings of
    factor f, an MLP of 8f-4f-2f-f, a linear predictor."""

    def __init__(self, users, items, f, layers=3):
        super().__init__()
        self.gu, self.gi = nn.Embedding(users, f), nn.Embedding(items, f)
        w = f * 2 ** (layers - 1)
        self.mu, self.mi = nn.Embedding(users, w), nn.Embedding(items, w)
        mlp_layers = []
        for i in range(layers):
            size = f * 2 ** (layers - i)
            mlp_layers += [nn.Dropout(0.0), nn.Linear(size, size // 2), nn.ReLU()]
        self.mlp = nn.Sequential(*mlp_layers)
        self.out = nn.Linear(2 * f, 1)

    def forward(self, ui):
        u, i = ui[:, 0], ui[:, 1]
        gmf = self.gu(u) * self.gi(i)
        mlp = self.mlp(torch.cat([self.mu(u), self.mi(i)], -1))
        return self.out(torch.cat([gmf, mlp], -1)).view(-1)


def recurrent():
    """Small recurrent forecasters and NCF (blind sample OO's LSTNet,
    TimeMixer-LSTM and NCF), the gate's recurrent and recommender widths."""
    for cell, name in ((nn.GRU, "gru"), (nn.LSTM, "lstm")):
        for hidden in (64, 100, 128, 256, 512):
            for b, seq in ((128, 168), (512, 24)):
                x = torch.randn(b, seq, 100, device=DEV)
                y = torch.randn(b, 321, device=DEV)
                measure(f"{name} 100-{hidden} seq {seq} + linear {hidden}x321 b{b}",
                        lambda: Recurrent(cell, 100, hidden, 321), x, y, F.mse_loss)
    for f in (32, 64):
        for b in (256, 4096):
            ui = torch.stack([torch.randint(0, 6040, (b,)), torch.randint(0, 3706, (b,))], 1).to(DEV)
            y = torch.rand(b, device=DEV)
            measure(f"ncf factor {f} mlp {8 * f}-{f} b{b}", lambda: NCF(6040, 3706, f), ui, y,
                    F.binary_cross_entropy_with_logits)


def wide():
    """MLPs whose linear layers are 2048 or 4096 wide, at the batches
    scripts train them (blind sample WW's Kaggle MoA MLP: 2048 wide, batch
    256): where linear layers alone show a network large."""
    for w in (2048, 4096):
        for b in (256, 512, 4096):
            x = torch.randn(b, 875, device=DEV)
            y = torch.rand(b, 206, device=DEV)
            measure(f"mlp 875-{w}-{w}-206 b{b}", lambda: mlp([875, w, w, 206]), x, y,
                    F.binary_cross_entropy_with_logits)


def wide_tf32():
    """The same MLPs, fp32 against TF32 matmuls (AMP005)."""
    for w in (2048, 4096):
        for b in (256, 512, 4096):
            x = torch.randn(b, 875, device=DEV)
            y = torch.rand(b, 206, device=DEV)
            measure_tf32(f"mlp 875-{w}-{w}-206 b{b}", lambda: mlp([875, w, w, 206]), x, y,
                         F.binary_cross_entropy_with_logits)


class SeqEncoder(nn.Module):
    """nn.TransformerEncoder of d_model d (feed-forward 2048, PyTorch's
    default) with a linear head per position: a time-series Transformer."""

    def __init__(self, d, heads, layers):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=d, nhead=heads)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        return self.head(self.encoder(x))


def transformer():
    """Small Transformer encoders at the sizes time-series and multimodal
    scripts train (blind sample WW's d 250 at batch 10 of 100 steps; a d
    256 at batch 64): fp32 against bf16 autocast, and against TF32."""
    for d, heads, layers in ((64, 4, 2), (256, 8, 1), (256, 8, 3)):
        for seq, b in ((100, 10), (100, 64), (256, 64)):
            x = torch.randn(seq, b, d, device=DEV)
            y = torch.randn(seq, b, 1, device=DEV)
            name = f"encoder d{d} ff2048 x{layers}, seq {seq} b{b}"
            torch.backends.cuda.matmul.allow_tf32 = False
            measure(name, lambda: SeqEncoder(d, heads, layers), x, y, F.mse_loss)
            measure_tf32(name, lambda: SeqEncoder(d, heads, layers), x, y, F.mse_loss)


def measure_tf32(name, build, x, y, loss_fn):
    """Median step time with fp32 matmuls (the better of two runs around
    it, a drift check) against TF32 matmuls (AMP005), one model."""
    torch.manual_seed(0)
    model = build().to(DEV)
    torch.backends.cuda.matmul.allow_tf32 = False
    fp32 = train_step_ms(model, x, y, loss_fn, 60)
    torch.backends.cuda.matmul.allow_tf32 = True
    tf32 = train_step_ms(model, x, y, loss_fn, 60)
    torch.backends.cuda.matmul.allow_tf32 = False
    fp32 = min(fp32, train_step_ms(model, x, y, loss_fn, 60))
    print(f"{name}: fp32 {fp32:.3f} ms, tf32 {tf32:.3f} ms, speed-up {fp32 / tf32:.2f}x", flush=True)


def measure(name, build, x, y, loss_fn):
    torch.manual_seed(0)
    model = build().to(DEV)
    fp32 = train_step_ms(model, x, y, loss_fn, 60)
    bf16 = train_step_ms(model, x, y, loss_fn, 60, bf16=True)
    fp32b = train_step_ms(model, x, y, loss_fn, 60)  # the fp32 run again: drift check
    fp32 = min(fp32, fp32b)
    print(f"{name}: fp32 {fp32:.3f} ms, bf16 {bf16:.3f} ms, speed-up {fp32 / bf16:.2f}x", flush=True)


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    print(torch.__version__, torch.cuda.get_device_name())
    ce = F.cross_entropy
    for b in (32, 256):
        x = torch.randn(b, 4, 84, 84, device=DEV)
        y = torch.randint(0, 6, (b,), device=DEV)
        measure(f"nature cnn 32/64 ch + linear 3136x512 b{b}", nature_cnn, x, y, ce)
    for b in (256, 4096):
        x = torch.randn(b, 17, device=DEV)
        y = torch.randn(b, 1, device=DEV)
        measure(f"mlp 17-256-256-1 b{b}", lambda: mlp([17, 256, 256, 1]), x, y, F.mse_loss)
        measure(f"mlp 17-512-512-1 b{b}", lambda: mlp([17, 512, 512, 1]), x, y, F.mse_loss)
    x = torch.randn(64, 1, 784, device=DEV)
    y = torch.randint(0, 10, (64,), device=DEV)
    measure("tcn 25 ch x 8 levels k7, seq 784 b64 (pmnist)", lambda: TCNHead(1, 25, 8, 7, 10), x, y, ce)
    x = torch.randn(32, 2, 600, device=DEV)
    y = torch.randn(32, 1, device=DEV)
    measure("tcn 30 ch x 8 levels k7, seq 600 b32 (adding)", lambda: TCNHead(2, 30, 8, 7, 1), x, y, F.mse_loss)
    x = torch.randn(64, 1, 784, device=DEV)
    y = torch.randint(0, 10, (64,), device=DEV)
    measure("tcn 256 ch x 8 levels k7, seq 784 b64", lambda: TCNHead(1, 256, 8, 7, 10), x, y, ce)
    for w in (64, 128, 256):
        x = torch.randn(128, 3, 32, 32, device=DEV)
        y = torch.randint(0, 10, (128,), device=DEV)
        measure(f"cifar conv {w}/{2 * w} ch b128", lambda: conv_net(w), x, y, ce)


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["gan"]:
        torch.backends.cuda.matmul.allow_tf32 = False
        print(torch.__version__, torch.cuda.get_device_name())
        gans()
    elif sys.argv[1:] == ["wide-tf32"]:
        print(torch.__version__, torch.cuda.get_device_name())
        wide_tf32()
    elif sys.argv[1:] == ["wide"]:
        torch.backends.cuda.matmul.allow_tf32 = False
        print(torch.__version__, torch.cuda.get_device_name())
        wide()
    elif sys.argv[1:] == ["transformer"]:
        print(torch.__version__, torch.cuda.get_device_name())
        transformer()
    elif sys.argv[1:] == ["rnn"]:
        torch.backends.cuda.matmul.allow_tf32 = False
        print(torch.__version__, torch.cuda.get_device_name())
        recurrent()
    else:
        main()
