# A CTC head that prints the logits' range when NaNs appear (blind sample
# S38C's sign-language recogniser): the .item() calls sit in a branch that
# only reports what went wrong, entered when it does, not on every
# forward. A scale read with .item() on every call is still reported.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda")


class SmoothedCTC(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.proj = nn.Linear(dim, vocab)
        self.register_buffer("scale", torch.ones(1))

    def forward(self, x, targets, input_lengths, target_lengths):
        logits = self.proj(x) * self.scale.item()  # want: SYNC006
        log_probs = F.log_softmax(logits, -1)
        if torch.isnan(log_probs).any():
            print(f"NaN in log_probs! logits range: {logits.min().item()}/{logits.max().item()}")
        variance = logits.var(-1)
        if (variance < 1e-5).any():
            raise ValueError(f"degenerate logits, variance {variance.min().item()}")
        return F.ctc_loss(log_probs.transpose(0, 1), targets, input_lengths, target_lengths, zero_infinity=True)


model = SmoothedCTC(256, 100).to(device)
