# A training function handed its models (blind sample S33AI's ADDA:
# `train_tgt(src_encoder, tgt_encoder, critic, ...)`, the encoders moved
# to the GPU by the caller's `init_model`, the batches by a helper of
# another module): the only module built here is the loss, which says
# nothing of where the models live. Silent.
import torch.nn as nn
import torch.optim as optim

from utils import make_variable


def train_tgt(tgt_encoder, critic, data_loader, epochs=100):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(critic.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for images, labels in data_loader:
            images = make_variable(images)
            labels = make_variable(labels)
            optimizer.zero_grad()
            loss = criterion(critic(tgt_encoder(images)), labels)
            loss.backward()
            optimizer.step()
    return critic
