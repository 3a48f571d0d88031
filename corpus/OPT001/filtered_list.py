# gpuopt-env: target-gpu=h100
# The trainable parameters gathered in a loop over filter(...) before the
# optimizer is built: still the model's parameters, on CUDA.
import numpy as np
import torch
import torch.optim as optim

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).to(device)

filtered_parameters = []
params_num = []
for p in filter(lambda p: p.requires_grad, model.parameters()):
    filtered_parameters.append(p)
    params_num.append(np.prod(p.size()))
print("Trainable params num : ", sum(params_num))

optimizer = optim.Adam(filtered_parameters, lr=1e-3, betas=(0.9, 0.999))  # want: OPT001

# A list filled from two places is left alone when they differ.
mixed = []
for p in model[0].parameters():
    mixed.append(p)
for p in torch.nn.Linear(4, 4).parameters():
    mixed.append(p)
other = optim.Adam(mixed, lr=1e-3)
