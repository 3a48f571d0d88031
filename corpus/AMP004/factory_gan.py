# gpuopt-env: target-gpu=h100
# A textbook MLP GAN (blind sample S17C): both networks come from factory
# functions of the module that fill an empty nn.Sequential, 100 hidden
# units and a flattened 28×28 output (np.prod of the image size), trained
# by step functions the epoch loop calls. Launch-bound: no autocast, TF32
# or torch.compile advice (AMP004, AMP005, OPT004).
import numpy as np
import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader

if torch.cuda.is_available():
    device = torch.device("cuda:0")
else:
    device = "cpu"
image_size = (28, 28)
z_size = 20
hidden_units = 100


def make_generator(input_size=20, num_hidden_layers=1, num_hidden_units=100, num_output_units=784):
    model = nn.Sequential()
    for i in range(num_hidden_layers):
        model.add_module(f"fc_g{i}", nn.Linear(input_size, num_hidden_units))
        model.add_module(f"relu_g{i}", nn.LeakyReLU())
        input_size = num_hidden_units
    model.add_module(f"fc_g{num_hidden_layers}", nn.Linear(input_size, num_output_units))
    model.add_module("tanh_g", nn.Tanh())
    return model


def make_discriminator(input_size, num_hidden_layers=1, num_hidden_units=100, num_output_units=1):
    model = nn.Sequential()
    for i in range(num_hidden_layers):
        model.add_module(f"fc_d{i}", nn.Linear(input_size, num_hidden_units, bias=False))
        model.add_module(f"relu_d{i}", nn.LeakyReLU())
        input_size = num_hidden_units
    model.add_module(f"fc_d{num_hidden_layers}", nn.Linear(input_size, num_output_units))
    model.add_module("sigmoid", nn.Sigmoid())
    return model


gen_model = make_generator(input_size=z_size, num_hidden_units=hidden_units, num_output_units=np.prod(image_size)).to(device)
disc_model = make_discriminator(input_size=np.prod(image_size), num_hidden_units=hidden_units).to(device)
loss_fn = nn.BCELoss()
g_optimizer = torch.optim.Adam(gen_model.parameters(), lr=2e-4, fused=True)
d_optimizer = torch.optim.Adam(disc_model.parameters(), lr=2e-4, fused=True)


def d_train(x):
    disc_model.zero_grad()
    x = x.view(x.size(0), -1).to(device)
    real = disc_model(x)
    fake = disc_model(gen_model(torch.rand(x.size(0), z_size, device=device)).detach())
    d_loss = loss_fn(real, torch.ones_like(real)) + loss_fn(fake, torch.zeros_like(fake))
    d_loss.backward()
    d_optimizer.step()
    return d_loss.detach()


def g_train(x):
    gen_model.zero_grad()
    fake = disc_model(gen_model(torch.rand(x.size(0), z_size, device=device)))
    g_loss = loss_fn(fake, torch.ones_like(fake))
    g_loss.backward()
    g_optimizer.step()
    return g_loss.detach()


dataset = torchvision.datasets.MNIST(root="./", train=True, transform=torchvision.transforms.ToTensor())
loader = DataLoader(dataset, batch_size=512, shuffle=True, drop_last=True, num_workers=4, pin_memory=True, persistent_workers=True)
for epoch in range(100):
    d_losses, g_losses = [], []
    for x, _ in loader:
        d_losses.append(d_train(x))
        g_losses.append(g_train(x))
    print(epoch, torch.stack(d_losses).mean().item(), torch.stack(g_losses).mean().item())
