# The loop iterates a name bound to enumerate(tqdm(loader)) (blind sample
# S19F's facenet LFW validation): the labels it yields stay on the host, so
# their `.cpu()` copies nothing and waits for nothing; the distances, which
# the model computed on the GPU, are still reported.
import numpy as np
import torch
from tqdm import tqdm


def validate(model, loader):
    model.eval()
    distances, labels = [], []
    with torch.no_grad():
        progress_bar = enumerate(tqdm(loader))
        for batch_index, (data_a, data_b, label) in progress_bar:
            output_a, output_b = model(data_a.cuda()), model(data_b.cuda())
            distance = torch.nn.functional.pairwise_distance(output_a, output_b)
            distances.append(distance.cpu().numpy())  # want: SYNC001
            labels.append(label.cpu().numpy())
    return np.concatenate(distances), np.concatenate(labels)


def main(train_loader, val_loader, epochs):
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 112 * 112, 512)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(epochs):
        model.train()
        for a, b in train_loader:
            loss = model(a.cuda()).sub(model(b.cuda())).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(validate(model, val_loader))
