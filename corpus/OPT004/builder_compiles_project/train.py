# A model built by a factory of another module that compiles it in place
# (`model.compile()`, nn.Module.compile since torch 2.2) before returning
# it: already compiled, so no hint (blind sample S26C's steer).
import torch
import torch.nn.functional as F

from modules.model import NetWrapped


def main(loader):
    model = NetWrapped("cuda")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = F.mse_loss(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main([])
