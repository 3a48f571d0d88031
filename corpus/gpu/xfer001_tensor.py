"""XFER001 on `torch.tensor(data).to(device)`: does building the tensor on
the device (`torch.tensor(data, device=device)`) save anything? Both build
from host data; the second skips only the named intermediate CPU tensor.

Timed inside a loop where the GPU is busy (a 4096² matmul queued before
each copy), as in a training step, and alone; each pair alternates
(timing.pair).

    python corpus/gpu/xfer001_tensor.py
"""
import torch

from timing import pair

DEV = "cuda"


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    a = torch.randn(4096, 4096, device=DEV)
    for n in (1, 64, 4096, 262144):
        data = [float(i) for i in range(n)]

        def via_cpu(busy):
            def run():
                for _ in range(20):
                    if busy:
                        a @ a
                    torch.tensor(data).to(DEV)
            return run

        def on_device(busy):
            def run():
                for _ in range(20):
                    if busy:
                        a @ a
                    torch.tensor(data, device=DEV)
            return run

        for busy in (False, True):
            before, after = pair(via_cpu(busy), on_device(busy), 30, warmup=3)
            print(f"list of {n} floats, GPU {'busy' if busy else 'idle'}: .to(dev) {before * 1e3 / 20:.3f} ms, "
                  f"device= {after * 1e3 / 20:.3f} ms per copy, speed-up {before / after:.2f}x", flush=True)


if __name__ == "__main__":
    main()
