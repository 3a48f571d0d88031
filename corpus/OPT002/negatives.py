import torch

# set_to_none=True is the default since PyTorch 2.0: nothing to say.
model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.Adam(model.parameters())
optimizer.zero_grad()
