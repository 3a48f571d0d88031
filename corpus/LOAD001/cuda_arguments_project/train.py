# The script moves its sequences to the GPU before it builds the datasets
# (`x_train = [x.cuda() for x in x_train]` when CUDA is there): a worker
# would re-initialize CUDA in a forked process and pin_memory refuses
# device tensors, so LOAD001 gives no workers (blind sample S33I's protein
# embedding, whose fix raised at the first batch). The pairs dataset,
# read from files on the host, keeps the finding.
import torch
import torch.nn as nn

from datasets import ContactMaps, Pairs, collate


def load(n):
    return [torch.randint(0, 21, (100,)) for _ in range(n)], [torch.rand(100, 100) for _ in range(n)]


def main():
    use_cuda = torch.cuda.is_available()
    x_train, contacts_train = load(10000)
    if use_cuda:
        x_train = [x.cuda() for x in x_train]
    train_maps = ContactMaps(x_train, contacts_train, augment=lambda x: x.flip(0))
    pairs = Pairs(paths=[f"pairs/{i}.pt" for i in range(10000)])
    map_loader = torch.utils.data.DataLoader(train_maps, batch_size=16, shuffle=True, collate_fn=collate)
    pair_loader = torch.utils.data.DataLoader(pairs, batch_size=16, shuffle=True, collate_fn=collate)  # want: LOAD001
    model = nn.Sequential(nn.Embedding(21, 512), nn.Linear(512, 512))
    if use_cuda:
        model = model.cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(100):
        for (seqs, maps), (a, b, y) in zip(map_loader, pair_loader):
            loss = sum(model(s.cuda()).sum() for s in seqs) + sum(model(s.cuda()).sum() for s in a)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
