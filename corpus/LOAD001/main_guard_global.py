# gpuopt-env: cpus=16
# A dataset that reads a global the script sets only under its __main__
# guard (blind sample S21Q's SimCSE trainer: `tokenizer = ...` there).
# Workers started by spawn or forkserver import the script without running
# that block, so the dataset would raise NameError in each: the fix starts
# them with fork, as it does for scripts that train when imported.
import torch
from torch.utils.data import DataLoader, Dataset


class TextDataset(Dataset):
    def __init__(self, lines):
        self.lines = lines

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        return tokenizer(self.lines[i])


def train(model, lines):
    loader = DataLoader(TextDataset(lines), batch_size=64)  # want: LOAD001
    opt = torch.optim.AdamW(model.parameters(), fused=True)
    for epoch in range(3):
        for batch in loader:
            loss = model(batch.cuda()).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    from transformers import AutoTokenizer

    hf = AutoTokenizer.from_pretrained("bert-base-uncased")

    def tokenizer(text):
        return torch.tensor(hf(text, padding="max_length", max_length=32)["input_ids"])

    net = torch.nn.EmbeddingBag(30522, 4096).cuda()
    train(net, open("corpus.txt").read().splitlines())
