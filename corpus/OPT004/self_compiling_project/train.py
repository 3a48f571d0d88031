# gpuopt-env: target-gpu=h100
# The network compiles its blocks in its own constructor (net.py): OPT004
# has nothing to add.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from net import PolicyNet


def main(positions):
    torch.set_float32_matmul_precision("high")
    loader = DataLoader(positions, batch_size=1024, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    model = PolicyNet().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(20):
        for boards, moves in loader:
            boards, moves = boards.cuda(non_blocking=True), moves.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = F.cross_entropy(model(boards), moves)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main(None)
