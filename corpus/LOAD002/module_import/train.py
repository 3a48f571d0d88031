# The Kaggle layout: `import config, engine`, the loop in engine.train_fn,
# the device named by config.DEVICE.
import torch

import config
import engine


def run(dataset):
    loader = torch.utils.data.DataLoader(dataset, batch_size=config.BATCH_SIZE, num_workers=4)  # want: LOAD002
    device = torch.device(config.DEVICE)
    model = torch.nn.Linear(16, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(5):
        engine.train_fn(loader, model, optimizer, device)


if __name__ == "__main__":
    run(None)
