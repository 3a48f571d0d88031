# A LeNet trunk feeding a quantum circuit that qiskit's connector
# estimates on the CPU: the circuit simulation is the step, and the
# connector hands its input to NumPy, which refuses bf16. No autocast
# advice. Silent.
import torch

from hybrid import HybridNet
from circuits import build_qnn


def main(loader, epochs):
    model = HybridNet(build_qnn()).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
