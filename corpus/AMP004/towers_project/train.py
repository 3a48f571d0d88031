# gpuopt-env: target-gpu=h100
# A triplet step whose three tower forwards are methods of a project
# model gpuopt cannot see into: the wrap must hold all three, not only
# the one whose output the loss reads last (blind sample S30B's
# two-towers, whose fix wrapped the negative tower alone). The same
# file's mixed-precision step is the other branch of the switch that
# calls the fp32 one: the fp32 path, chosen by a flag, is not reported.
import torch
import torch.nn as nn

from towers import TwoTowers

model = TwoTowers().cuda()
criterion = nn.TripletMarginLoss(margin=0.2)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)


def train_step(loader):
    for queries, positives, negatives in loader:
        queries, positives, negatives = queries.cuda(), positives.cuda(), negatives.cuda()
        optimizer.zero_grad()
        # the three towers
        q = model.encode_queries(queries)  # want: AMP004
        pos = model.encode_documents(positives)
        neg = model.encode_documents(negatives)

        loss = criterion(q, pos, neg)
        loss.backward()
        optimizer.step()


def train_epoch_fp32(loader):
    for queries, positives, negatives in loader:
        queries, positives, negatives = queries.cuda(), positives.cuda(), negatives.cuda()
        optimizer.zero_grad()
        q = model.encode_queries(queries)
        pos = model.encode_documents(positives)
        neg = model.encode_documents(negatives)
        loss = criterion(q, pos, neg)
        loss.backward()
        optimizer.step()


def train_epoch_mixed(loader):
    for queries, positives, negatives in loader:
        queries, positives, negatives = queries.cuda(), positives.cuda(), negatives.cuda()
        optimizer.zero_grad()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            q = model.encode_queries(queries)
            pos = model.encode_documents(positives)
            neg = model.encode_documents(negatives)
            loss = criterion(q, pos, neg)
        loss.backward()
        optimizer.step()


def main(loader, use_mixed_precision=True):
    train_step(loader)
    for epoch in range(10):
        if use_mixed_precision:
            train_epoch_mixed(loader)
        else:
            train_epoch_fp32(loader)


if __name__ == "__main__":
    main(None)
