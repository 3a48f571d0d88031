# A diffusion sampler keeps every step's sample on the host only when a
# developer asks for it (`if debug:`): the default run never copies.
# Silent.
import torch
from tqdm import tqdm

model = torch.nn.Conv2d(3, 3, 3, padding=1).cuda()


@torch.no_grad()
def sample(x, steps, debug=False):
    xs = []
    for t in tqdm(reversed(range(steps))):
        x = model(x) * (t / steps)
        if debug:
            xs.append(x.detach().cpu().numpy())
    return x, xs
