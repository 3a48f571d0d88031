# gpuopt-env: torch=2.4
# A DistilBERT fine-tune: each batch is token ids and a mask, 12 × 512
# int64 (48 KB), whose copy from pageable memory costs microseconds against
# a transformer step. pin_memory gains nothing there: silent.
import torch
from torch.utils.data import DataLoader, Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")


class Reviews(Dataset):
    def __init__(self, texts, labels):
        self.enc = tokenizer(texts, truncation=True, padding="max_length", max_length=512, return_tensors="pt")
        self.labels = torch.tensor(labels)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.enc["input_ids"][i], self.enc["attention_mask"][i], self.labels[i]


model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
loader = DataLoader(Reviews(["a good film"] * 35000, [1] * 35000), batch_size=12, shuffle=True, num_workers=4)

for epoch in range(3):
    for ids, mask, labels in loader:
        loss = model(input_ids=ids.cuda(), attention_mask=mask.cuda(), labels=labels.cuda()).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
