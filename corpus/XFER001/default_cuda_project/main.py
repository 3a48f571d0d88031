# The entry script makes CUDA the default for new tensors before it runs
# the trainer of trainer.py: there, torch.zeros(...) already allocates on
# the GPU, and its .cuda() copies nothing. No XFER001 in trainer.py
# (blind sample S31O's DeepVO, whose three findings said "built on the
# CPU" of tensors that were not).
import torch

from trainer import Trainer

torch.set_default_tensor_type(torch.cuda.FloatTensor)
model = torch.nn.LSTM(512, 1024).cuda()
Trainer(model, torch.optim.Adam(model.parameters(), fused=True)).run(1000)
