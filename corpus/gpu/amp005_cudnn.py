"""AMP005 on networks whose work is convolutions or cuDNN recurrent
layers, with small linear heads, and on MLPs of growing width: one
training step with
torch.set_float32_matmul_precision("highest") against "high" (TF32
matmuls). Prints the median step time of both and the speed-up; the
rule's gate (patterns/amp005_tf32.go) cites it.

    python corpus/gpu/amp005_cudnn.py        # all but the GANs
    python corpus/gpu/amp005_cudnn.py gan    # the MNIST GAN pair
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from opt004_recurrent import TextLSTM
from timing import train_step_ms

DEV = "cuda"


class GRUClassifier(nn.Module):
    def __init__(self, vocab=128, hidden=100, classes=18):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.gru = nn.GRU(hidden, hidden, 2, batch_first=True)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        out, _ = self.gru(self.embed(x))
        return self.fc(out[:, -1])


def dcgan_critic():
    return nn.Sequential(
        nn.Conv2d(3, 64, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 128, 4, 2, 1), nn.LeakyReLU(0.2),
        nn.Conv2d(128, 256, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(256 * 4 * 4, 1))


def mlp(widths):
    layers = []
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def measure(name, build, x, y, loss_fn):
    res = {}
    for prec in ("highest", "high", "highest"):
        torch.set_float32_matmul_precision(prec)
        torch.manual_seed(0)
        t = train_step_ms(build().to(DEV), x, y, loss_fn, 40)
        res[prec] = min(res.get(prec, t), t)
    print(f"{name}: highest {res['highest']:.3f} ms, high {res['high']:.3f} ms, speed-up {res['highest'] / res['high']:.2f}x", flush=True)


def main():
    print(torch.__version__, torch.cuda.get_device_name(), "cudnn.allow_tf32", torch.backends.cudnn.allow_tf32)
    ce = F.cross_entropy
    for b in (1, 64):
        x = torch.randint(0, 128, (b, 20), device=DEV)
        y = torch.randint(0, 18, (b,), device=DEV)
        measure(f"gru 2x100 + linear 100x18 b{b} seq20", GRUClassifier, x, y, ce)
    x = torch.randint(0, 20000, (32, 200), device=DEV)
    y = torch.randint(0, 2, (32,), device=DEV)
    measure("text lstm 300->256 + linear 256x2 b32 seq200", TextLSTM, x, y, ce)
    x = torch.randn(64, 3, 32, 32, device=DEV)
    y = torch.rand(64, 1, device=DEV)
    measure("dcgan critic 64/128/256 ch + linear 4096x1 b64", dcgan_critic, x, y, F.binary_cross_entropy_with_logits)
    # MLPs with no cuDNN layer, from MNIST-sized to wide: where the
    # no-cuDNN threshold (tinyMatmulMACs) sits.
    for widths, b in (((784, 500, 10), 100), ((784, 200, 200, 10), 200), ((784, 400, 20), 128),
                      ((1024, 512, 10), 256), ((1024, 1024, 1024, 10), 256), ((2048, 2048, 2048, 10), 512),
                      ((4096, 4096, 4096, 10), 512)):
        x = torch.randn(b, widths[0], device=DEV)
        y = torch.randint(0, widths[-1], (b,), device=DEV)
        measure(f"mlp {'-'.join(map(str, widths))} b{b}", lambda w=widths: mlp(w), x, y, ce)


def gans():
    """The MNIST GAN collection's generator and discriminator (blind
    sample HH), at its batch of 64."""
    from amp004_narrow import MnistGenerator, mnist_discriminator

    print(torch.__version__, torch.cuda.get_device_name(), "cudnn.allow_tf32", torch.backends.cudnn.allow_tf32)
    measure("mnist gan generator 62-1024-6272 + deconv 64/1 b64", MnistGenerator,
            torch.randn(64, 62, device=DEV), torch.randn(64, 1, 28, 28, device=DEV), F.mse_loss)
    measure("mnist gan discriminator conv 64/128 + 6272-1024-1 b64", mnist_discriminator,
            torch.randn(64, 1, 28, 28, device=DEV), torch.rand(64, 1, device=DEV), F.binary_cross_entropy_with_logits)


if __name__ == "__main__":
    import sys

    gans() if sys.argv[1:] == ["gan"] else main()
