# gpuopt-env: target-gpu=h100
# A network from a module gpuopt cannot read, handed to the function that
# runs the epoch: inside that function `net` is a parameter, known as a
# model by the name main() passes for it (whose .parameters() go to the
# optimizer). Its training step gets AMP004.
import torch
import tqdm

from models.network import Network


def train_or_eval(net, data, optim, is_train, config):
    net.train() if is_train else net.eval()
    losses = []
    for x, target in tqdm.tqdm(data):
        x, target = x.to(config["device"]), target.to(config["device"])
        predicted = net(x)  # want: AMP004
        loss = torch.abs(target - predicted).sum((1, 2)).mean()
        if is_train:
            loss.backward()
            optim.step()
            optim.zero_grad()
        losses.append(loss.detach())
    return torch.stack(losses).mean().item()


def main(config, data_train, data_val):
    net = Network(**config["model_args"]).to(config["device"])
    optim = torch.optim.Adam(net.parameters(), lr=1e-4, fused=True)
    for epoch in range(50):
        train_or_eval(net, data_train, optim, True, config)
        with torch.no_grad():
            train_or_eval(net, data_val, None, False, config)


if __name__ == "__main__":
    config = {"device": torch.device("cuda" if torch.cuda.is_available() else "cpu"), "model_args": {"width": 512}}
    main(config, [], [])
