# The training loop of the answering network: AMP004 asks for fp16 and a
# GradScaler, not bf16, because the network's question encoder (a module-
# level instance in vqa.py) is an LSTM.
import torch
import torch.nn.functional as F

from vqa import Answerer


def train(loader, epochs=30):
    net = Answerer().cuda()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, fused=True)
    for epoch in range(epochs):
        for image, tokens, answer in loader:
            image, tokens, answer = image.cuda(), tokens.cuda(), answer.cuda()
            logits = net(image, tokens)  # want: AMP004
            loss = F.cross_entropy(logits, answer)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
