# Two heads stepped one after the other: the first backward is the age
# loss, so a wrap of the forward and that loss would leave the gender
# head's BCELoss outside, on a bf16 sigmoid output against an fp32 target
# (RuntimeError: BCE wants one dtype). No fix; the finding says why.
import torch
import torch.nn as nn

from models import AgeNet, GenderNet

device = torch.device("cuda")
gender_model, age_model = GenderNet().to(device), AgeNet().to(device)
gender_loss_fn, age_loss_fn = nn.BCELoss(), nn.CrossEntropyLoss()
gen_opt = torch.optim.Adam(gender_model.parameters(), lr=1e-3, fused=True)
age_opt = torch.optim.Adam(age_model.parameters(), lr=1e-3, fused=True)


def train(loader, epochs=10):
    for epoch in range(epochs):
        for images, genders, ages in loader:
            images, genders, ages = images.to(device), genders.to(device), ages.to(device)
            pred_genders = gender_model(images).view(-1)  # want: AMP004
            pred_ages = age_model(images)
            age_loss = age_loss_fn(pred_ages, ages)
            gender_loss = gender_loss_fn(pred_genders, genders.float())
            age_opt.zero_grad()
            age_loss.backward()
            age_opt.step()
            gen_opt.zero_grad()
            gender_loss.backward()
            gen_opt.step()
