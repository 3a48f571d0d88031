# A trainer class handed its dataset: main.py builds it with the data
# module's load_examples, a TensorDataset of tensors in memory. Workers
# would only add start-up and pickling to its indexing: no LOAD001. (A
# dataset class that decodes files keeps the finding: sibling_dataset.)
import torch
from torch.utils.data import DataLoader, RandomSampler


class Trainer:
    def __init__(self, model, train_dataset):
        self.model = model.cuda()
        self.train_dataset = train_dataset
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=5e-5, fused=True)

    def train(self):
        loader = DataLoader(self.train_dataset, sampler=RandomSampler(self.train_dataset), batch_size=32)
        for epoch in range(3):
            for input_ids, labels in loader:
                input_ids, labels = input_ids.cuda(), labels.cuda()
                loss = self.model(input_ids, labels=labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
