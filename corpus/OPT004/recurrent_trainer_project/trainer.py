# The training loop of the project, in a trainer class that moves every
# network it is handed to the GPU and optimizes it.
import torch


class Trainer:
    def __init__(self, loader, encoder, decoder, head):
        self.loader = loader
        self.encoder, self.decoder, self.head = encoder.cuda(), decoder.cuda(), head.cuda()
        params = list(encoder.parameters()) + list(decoder.parameters()) + list(head.parameters())
        self.optimizer = torch.optim.Adam(params, lr=1e-4, fused=True)

    def train(self, epochs):
        torch.manual_seed(0)
        for epoch in range(epochs):
            for x, y in self.loader:
                x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
                z = self.encoder(x)
                loss = torch.nn.functional.mse_loss(self.decoder(z), x) + torch.nn.functional.cross_entropy(self.head(z), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
