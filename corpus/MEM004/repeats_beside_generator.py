# A GAN step over a loader wrapped in a progress bar (blind sample S29F's
# MelGAN): the generator steps once per batch, then the discriminator a
# few times on the same batch, its losses summed into a total reset for
# every batch. The total keeps one batch's repeats, not every step's:
# silent.
import torch
import tqdm


def train(gen, disc, trainloader, optim_g, optim_d, rep=3):
    loader = tqdm.tqdm(trainloader, desc="train")
    for mel, audio in loader:
        mel, audio = mel.cuda(non_blocking=True), audio.cuda(non_blocking=True)
        optim_g.zero_grad()
        loss_g = (disc(gen(mel)) - 1).pow(2).mean()
        loss_g.backward()
        optim_g.step()
        fake = gen(mel).detach()
        loss_d_sum = 0.0
        for _ in range(rep):
            optim_d.zero_grad()
            loss_d = (disc(audio) - 1).pow(2).mean() + disc(fake).pow(2).mean()
            loss_d.backward()
            optim_d.step()
            loss_d_sum += loss_d
        print((loss_d_sum / rep).item())
