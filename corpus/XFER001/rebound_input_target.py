# A channel-aligning layer (blind sample S38J's STGCN): the forward pads
# its input with zeros built on the CPU and moved to the input's device
# by `.to(x)`, in an elif branch that also rebinds x. The read inside
# the statement is the parameter's, so the pad can be made on the device.
import torch
import torch.nn as nn


class Align(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.c_in = c_in
        self.c_out = c_out
        self.align_conv = nn.Conv2d(c_in, c_out, kernel_size=(1, 1))

    def forward(self, x):
        if self.c_in > self.c_out:
            x = self.align_conv(x)
        elif self.c_in < self.c_out:
            batch_size, _, timestep, n_vertex = x.shape
            x = torch.cat([x, torch.zeros([batch_size, self.c_out - self.c_in, timestep, n_vertex]).to(x)], dim=1)  # want: XFER001
        else:
            x = x
        return x


model = Align(16, 64).cuda()
