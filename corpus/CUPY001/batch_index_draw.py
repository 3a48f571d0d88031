# A denoiser's inner loop draws a batch of patch indices with NumPy and
# moves them to the GPU: the draw's size is a batch size (a few dozen
# indices), where CuPy gains nothing (torch.randint(..., device=...) is
# the natural spelling). Silent. A draw of a size gpuopt cannot tell, fed
# to the GPU the same way, keeps the finding.
import numpy as np
import torch


def refine(patches, targets, net, opt, steps, batch_size, n_noise):
    for step in range(steps):
        ids = torch.from_numpy(np.random.randint(0, patches.shape[0], batch_size)).cuda()
        loss = torch.nn.functional.mse_loss(net(patches[ids]), targets[ids])
        opt.zero_grad()
        loss.backward()
        opt.step()
    noise = torch.from_numpy(np.random.normal(0, 1, n_noise)).cuda()  # want: CUPY001
    return noise
