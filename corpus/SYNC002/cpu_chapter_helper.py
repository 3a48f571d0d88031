# A book's utilities module: an early chapter's training helper feeds its
# batches straight to the network (the chapter trains on the CPU), a later
# one moves them to the device. A per-step .item() in the CPU helper waits
# for nothing; the device helper's does.
import torch


def sgd(params, lr, batch_size):
    for param in params:
        param.data -= lr * param.grad / batch_size


def train_ch3(net, train_iter, loss, num_epochs, batch_size, params=None, lr=None):
    for epoch in range(num_epochs):
        train_l_sum, n = 0.0, 0
        for X, y in train_iter:
            y_hat = net(X)
            l = loss(y_hat, y).sum()
            l.backward()
            sgd(params, lr, batch_size)
            train_l_sum += l.item()
            n += y.shape[0]
        print(epoch, train_l_sum / n)


def train_ch5(net, train_iter, optimizer, num_epochs, device=torch.device("cuda" if torch.cuda.is_available() else "cpu")):
    net = net.to(device)
    loss = torch.nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        train_l_sum, n = 0.0, 0
        for X, y in train_iter:
            X = X.to(device)
            y = y.to(device)
            l = loss(net(X), y)
            optimizer.zero_grad()
            l.backward()
            optimizer.step()
            train_l_sum += l.cpu().item()  # want: SYNC002
            n += y.shape[0]
        print(epoch, train_l_sum / n)
