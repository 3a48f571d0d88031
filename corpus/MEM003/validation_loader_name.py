# A validation pass after each epoch with no model.eval() before it: the
# loader's name says what the loop is, and the model is the one the same
# function trains. It runs with autograd on.
import torch
import torch.nn as nn
import torchvision


def train(net, train_loader, val_loader, test_sample_num, epochs=10):
    net = net.cuda()
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for hazy, clean in train_loader:
            hazy, clean = hazy.cuda(), clean.cuda()
            loss = criterion(net(hazy), clean)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        for i, (hazy, clean) in enumerate(val_loader):  # want: MEM003
            out = net(hazy.cuda())
            torchvision.utils.save_image(torch.cat((hazy.cuda(), out), 0), f"val_{i}.jpg")

        # Not a loader: a count of samples.
        for _ in range(test_sample_num):
            x = torch.randn(1, 3, 64, 64, device="cuda")
            torchvision.utils.save_image(net(x), "sample.jpg")

        # A second training pass over another loader: it steps.
        for hazy, clean in val_loader:
            loss = criterion(net(hazy.cuda()), clean.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def features(encoder, test_loader):
    # The function trains nothing: which model this is, gpuopt cannot tell.
    return [encoder(x.cuda()) for x in test_loader]
