# gpuopt-env: target-gpu=h100
# The training loop saves a checkpoint every few thousand iterations by
# moving each tensor of the decoder's state_dict to the CPU under its key
# (pytorch-AdaIN): a store into a dict, not into a tensor by index, so it
# cannot raise the index-put dtype error and does not hold back the wrap.
import torch
import torch.nn as nn

encoder = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU()).cuda()
decoder = nn.Sequential(nn.Conv2d(256, 3, 3, padding=1)).cuda()
optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-4, fused=True)
torch.backends.cudnn.benchmark = True


def train(content_iter, max_iter):
    for i in range(max_iter):
        images = next(content_iter).cuda(non_blocking=True)
        out = decoder(encoder(images))  # want: AMP004
        loss = nn.functional.mse_loss(out, images)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 10000 == 0:
            state_dict = decoder.state_dict()
            for key in state_dict.keys():
                state_dict[key] = state_dict[key].to(torch.device("cpu"))
            torch.save(state_dict, "decoder_iter_{:d}.pth".format(i + 1))
