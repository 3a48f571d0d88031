# The script that imports the library module.
import torch

from layers import Down

model = Down(32).cuda()
