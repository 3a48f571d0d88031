# A recurrent traffic model built on the project's BaseModel (blind sample
# S23C's DCRNN): the decoder's start symbol, built on the CPU and copied in
# __init__, is built once, and XFER001 stays silent, as for any module's
# __init__. The zeros its forward builds and copies run every step.
import torch
import torch.nn as nn

from base_model import BaseModel


class DCRNNModel(BaseModel):
    def __init__(self, batch_size=64, num_nodes=207):
        super().__init__()
        self.go_symbol = torch.zeros(1, batch_size, num_nodes, 1).cuda()
        self.cell = nn.GRUCell(num_nodes, num_nodes)

    def forward(self, x):
        h = torch.zeros(x.size(0), x.size(1)).cuda()  # want: XFER001
        for t in range(12):
            h = self.cell(x, h)
        return h
