# Fine-tuning a language model on tokenised reports: the encodings are
# moved to the device item by item (`enc[k] = enc[k].to(device)`) before
# the dataset is built from them, and a second helper wraps a moved tensor
# in a dict literal. Forked workers cannot touch CUDA tensors (and
# pin_memory refuses them): both loaders stay silent, where workers would
# make the script raise at its first batch. A loader over host tensors
# keeps its finding.
import torch
from torch.utils.data import DataLoader, Dataset


class Encoded(Dataset):
    def __init__(self, enc):
        self.enc = enc

    def __getitem__(self, i):
        return {k: v[i] for k, v in self.enc.items()}

    def __len__(self):
        return len(self.enc["input_ids"])


def fine_tune(model, enc, device="cpu", epochs=2):
    for k in enc:
        enc[k] = enc[k].to(device)
    loader = DataLoader(Encoded(enc), batch_size=2, shuffle=True)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-5)
    for epoch in range(epochs):
        for batch in loader:
            opt.zero_grad()
            model(**batch).loss.backward()
            opt.step()


def fine_tune_ids(model, ids, device="cpu", epochs=2):
    ids = ids.to(device)
    loader = DataLoader(Encoded({"input_ids": ids, "labels": ids}), batch_size=2, shuffle=True)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-5)
    for epoch in range(epochs):
        for batch in loader:
            opt.zero_grad()
            model(**batch).loss.backward()
            opt.step()


def fine_tune_host(model, enc, device="cpu", epochs=2):
    loader = DataLoader(Encoded(enc), batch_size=2, shuffle=True)  # want: LOAD001
    opt = torch.optim.AdamW(model.parameters(), lr=5e-5)
    for epoch in range(epochs):
        for batch in loader:
            opt.zero_grad()
            model(**{k: v.to(device) for k, v in batch.items()}).loss.backward()
            opt.step()


if __name__ == "__main__":
    from transformers import GPT2LMHeadModel

    net = GPT2LMHeadModel.from_pretrained("gpt2").to("cuda")
    reports = {"input_ids": torch.randint(50257, (64, 128)), "attention_mask": torch.ones(64, 128, dtype=torch.long)}
    fine_tune(net, dict(reports), device="cuda")
    fine_tune_ids(net, reports["input_ids"], device="cuda")
    fine_tune_host(net, dict(reports), device="cuda")
