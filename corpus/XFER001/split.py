# The factory and the move in two statements of one block (a DDPM's
# sampler, a loss's targets): the tensor is created on the device and the
# move is dropped.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def sample(model, batch_size):
    x_T = torch.randn(batch_size, 3, 32, 32)  # want: XFER001
    x_T = x_T.to(device)
    return model(x_T)


def targets(n):
    t = torch.zeros(n, 10)  # want: XFER001
    out = t.cuda()
    return out


def kept(n):
    # Used on the CPU before the move: left alone.
    w = torch.ones(n)
    print(w.sum())
    return w.to(device)


def branch(n):
    # Moved only when a GPU is there: built there when it is (the move
    # stays, a no-op); an expression over the factory is left alone.
    w = torch.ones(n) * -1
    if torch.cuda.is_available():
        w = w.cuda()
    m = torch.ones(n)  # want: XFER001
    if torch.cuda.is_available():
        m = m.cuda()
    return w, m


def late_device(n):
    # The device is chosen between the two statements: left alone.
    z = torch.zeros(n)
    dev = torch.device("cuda")
    return z.to(dev)
