# A loader over a NumPy array computed in memory (sentence embeddings
# averaged over their captions): each batch is a slice of it, so workers
# would add start-up and pickling only. The image loader beside it decodes
# files and is reported.
import numpy as np
import pandas as pd
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def loaders(batch_size):
    images = datasets.ImageFolder("images/", transform=transforms.Compose([transforms.Resize((64, 64)), transforms.ToTensor()]))
    captions = pd.read_pickle("embeddings.pickle")
    image_loader = DataLoader(images, batch_size=batch_size, shuffle=False)  # want: LOAD001
    text_loader = DataLoader(np.array(captions).mean(axis=1), batch_size=batch_size, shuffle=False)
    return image_loader, text_loader


def train(generator, discriminator, opt_g, opt_d, epochs=600):
    image_loader, text_loader = loaders(64)
    for epoch in range(epochs):
        for (real, _), text in zip(image_loader, text_loader):
            real, text = real.cuda(), text.float().cuda()
            fake = generator(text, torch.randn(real.size(0), 100, device="cuda"))
            loss_d = discriminator(fake.detach(), text).mean() - discriminator(real, text).mean()
            opt_d.zero_grad()
            loss_d.backward()
            opt_d.step()
            loss_g = -discriminator(fake, text).mean()
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
