# A BERT classifier whose collate function returns the tokenizer's
# BatchEncoding as the batch's first item: BatchEncoding.to takes no
# non_blocking before transformers 4.48, so `batch[0].to(device,
# non_blocking=True)` would raise TypeError. Items taken by key are
# tensors and keep the fix.
import torch
from torch.utils.data import DataLoader
from transformers import AutoModel, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-chinese")
model = AutoModel.from_pretrained("bert-base-chinese").cuda()
device = torch.device("cuda")


def collate(samples):
    texts, labels = zip(*samples)
    return tokenizer(list(texts), padding=True, return_tensors="pt"), torch.tensor(labels)


def train(dataset, keyed_dataset, optimizer):
    loader = DataLoader(dataset, batch_size=32, collate_fn=collate, num_workers=4, pin_memory=True)
    for i, batch in enumerate(loader):
        inputs = batch[0].to(device)
        labels = batch[1].to(device)
        loss = torch.nn.functional.cross_entropy(model(inputs), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    keyed = DataLoader(keyed_dataset, batch_size=32, num_workers=4, pin_memory=True)
    for batch in keyed:
        ids = batch["input_ids"].to(device)  # want: XFER002
        loss = model(input_ids=ids).pooler_output.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
