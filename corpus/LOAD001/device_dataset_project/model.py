# A library's training function builds its loaders over whatever dataset
# it is handed (blind sample S38X's pt-dec): the project's own dataset
# (mnist.py) caches its items on the GPU, where workers would fail
# ("Cannot re-initialize CUDA in forked subprocess") and pinning raises
# ("cannot pin 'torch.cuda.FloatTensor'"). No worker or pinning advice.
import torch
from torch.utils.data import DataLoader


def train(dataset, autoencoder, epochs, batch_size, optimizer, cuda=True):
    dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
    for epoch in range(epochs):
        for batch, _ in dataloader:
            if cuda:
                batch = batch.cuda(non_blocking=True)
            loss = torch.nn.functional.mse_loss(autoencoder(batch), batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
