"""A decoder whose forward trains with teacher forcing and, in eval mode,
decodes by beam search. The beam search reads host values by design (its
Python control flow needs them, at batch 1 under no_grad) and no training
step runs it: silent. The training path reads three predictions on one
line: one finding for the line, whose first read is the one that waits."""
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, vocab=512, width=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.cell = nn.GRUCell(width, width)
        self.out = nn.Linear(width, vocab)
        self.kind = nn.Linear(width, 4)
        self.bond = nn.Linear(width, 8)

    def forward(self, tokens, beam_size=1):
        if self.training or beam_size == 1:
            return self.teacher_forced(tokens)
        else:
            return self.beam_decode(tokens, beam_size)

    def teacher_forced(self, tokens):
        h = torch.zeros(tokens.size(0), self.cell.hidden_size, device=tokens.device)
        stats = []
        logits = []
        for t in range(tokens.size(1)):
            h = self.cell(self.embed(tokens[:, t]), h)
            logits.append(self.out(h))
            stats.append((self.out(h).argmax().item(), self.kind(h).argmax().item(), self.bond(h).argmax().item()))  # want: SYNC006
        return torch.stack(logits, 1), stats

    def beam_decode(self, tokens, beam_size):
        h = torch.zeros(1, self.cell.hidden_size, device=tokens.device)
        best, seq = 0.0, [int(tokens[0, 0])]
        for _ in range(32):
            h = self.cell(self.embed(torch.tensor([seq[-1]], device=tokens.device)), h)
            scores, ids = self.out(h).log_softmax(-1).topk(beam_size)
            best += scores[0, 0].item()
            seq.append(ids[0, 0].item())
            if seq[-1] == 0:
                break
        return seq, best


def train(model, loader, optimizer):
    model.train()
    for tokens in loader:
        tokens = tokens.cuda()
        logits, _ = model(tokens)
        loss = nn.functional.cross_entropy(logits[:, :-1].flatten(0, 1), tokens[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
