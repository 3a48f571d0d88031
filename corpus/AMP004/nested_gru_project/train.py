# Training the document model: AMP004 asks for fp16 and a GradScaler, not
# bf16, because a GRU two modules away runs in fp16 under autocast
# whatever dtype the region asks.
import torch
import torch.nn.functional as F

from han import DocumentNet


def train(loader, epochs=20):
    model = DocumentNet().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(epochs):
        for sentences, label in loader:
            sentences, label = sentences.cuda(), label.cuda()
            logits = model(sentences)  # want: AMP004
            loss = F.cross_entropy(logits, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
