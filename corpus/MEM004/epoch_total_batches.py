# An epoch total reset per epoch, summed over an inner loop that steps the
# optimizer on every batch of an iterable gpuopt does not know as a
# loader (blind sample S24G's VoxelNet): it keeps every step's graph of
# the epoch, so it is reported.
import torch


def train(model, batches, optimizer, epochs):
    for epoch in range(epochs):
        epoch_loss = 0
        for x, y in batches(epoch):
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = (model(x) - y).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss  # want: MEM004
        print(epoch, float(epoch_loss))
