# A collate that returns lists of variable-length sequences, padded and
# stacked in the loop before the copy: torch.stack makes a new tensor in
# pageable memory, so pinning the loader's samples never reaches the copy
# (a diarization trainer's layout). A loader whose batch is copied as it
# comes is still reported.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def as_lists(samples):
    return {"xs": [s[0] for s in samples], "ts": [s[1] for s in samples]}


def pad_to(seqs, length):
    return [F.pad(s, (0, 0, 0, length - s.shape[0])) for s in seqs]


def train(model, optimizer, dataset, device, epochs, frames):
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4, collate_fn=as_lists)
    for epoch in range(epochs):
        for batch in loader:
            features = pad_to(batch["xs"], frames)
            labels = pad_to(batch["ts"], frames)
            features = torch.stack(features).to(device)
            labels = torch.stack(labels).to(device)
            loss = F.binary_cross_entropy_with_logits(model(features), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def finetune(model, optimizer, dataset, device, epochs):
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)  # want: LOAD002
    for epoch in range(epochs):
        for features, labels in loader:
            features, labels = features.to(device), labels.to(device)
            loss = F.binary_cross_entropy_with_logits(model(features), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    net = torch.nn.Linear(40, 2).cuda()
    data = [(torch.rand(n, 40), torch.rand(n, 2).round()) for n in range(50, 150)]
    train(net, torch.optim.Adam(net.parameters(), fused=True), data, "cuda", 10, 150)
    finetune(net, torch.optim.Adam(net.parameters(), fused=True), torch.utils.data.TensorDataset(torch.rand(1000, 40), torch.rand(1000, 2)), "cuda", 10)
