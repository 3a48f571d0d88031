# The 1-N targets of a knowledge-graph embedding (ConvE, TuckER, HypER):
# a (batch × entities) matrix made with NumPy on every step, a one per
# true tail, then copied to the GPU. Made on the GPU it costs no host
# work and no copy. A small constant block and a matrix the code keeps on
# the host stay silent, as does the same helper called once.
from collections import defaultdict

import numpy as np
import torch


class Experiment:
    def __init__(self, n_entities, batch_size=128, cuda=True):
        self.n_entities = n_entities
        self.batch_size = batch_size
        self.cuda = cuda

    def get_batch(self, er_vocab, pairs, idx):
        batch = pairs[idx:idx + self.batch_size]
        targets = np.zeros((len(batch), self.n_entities))  # want: XFER001
        for i, pair in enumerate(batch):
            targets[i, er_vocab[pair]] = 1.0
        targets = torch.FloatTensor(targets)
        if self.cuda:
            targets = targets.cuda()
        return np.array(batch), targets

    def host_counts(self, batch):
        counts = np.zeros((len(batch), self.n_entities))
        counts[:, 0] = 1
        return torch.from_numpy(counts)

    def train(self, model, opt, pairs):
        er_vocab = defaultdict(list)
        for h, r, t in pairs:
            er_vocab[(h, r)].append(t)
        keys = list(er_vocab)
        for epoch in range(100):
            for j in range(0, len(keys), self.batch_size):
                batch, targets = self.get_batch(er_vocab, keys, j)
                block = torch.from_numpy(np.zeros((4, 4))).cuda()
                e1 = torch.tensor(batch[:, 0]).cuda()
                r = torch.tensor(batch[:, 1]).cuda()
                opt.zero_grad()
                loss = model.loss(model(e1, r) + block.sum(), targets)
                loss.backward()
                opt.step()
                print(self.host_counts(batch).sum())
