import torch


def create_optimizer(net, lr):
    if torch.cuda.is_available():
        net = torch.nn.DataParallel(net)
    net = net.to("cuda")
    return net, torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
