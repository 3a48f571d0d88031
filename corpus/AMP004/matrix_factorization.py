# gpuopt-env: target-gpu=h100
# A matrix-factorisation recommender: embedding lookups combined with an
# elementwise product and a sum. Autocast casts none of those operations
# (there is no linear layer, convolution or matmul), so there is nothing to
# wrap: no AMP004.
import torch
import torch.nn as nn


class MatrixFactorization(nn.Module):
    def __init__(self, num_users, num_items, num_factors=50):
        super().__init__()
        self.user_emb = nn.Embedding(num_users, num_factors)
        self.item_emb = nn.Embedding(num_items, num_factors)
        self.user_bias = nn.Embedding(num_users, 1)
        self.item_bias = nn.Embedding(num_items, 1)
        nn.init.normal_(self.user_emb.weight, std=0.01)

    def forward(self, user, item):
        dot = (self.user_emb(user) * self.item_emb(item)).sum(1)
        return dot + self.user_bias(user).squeeze(1) + self.item_bias(item).squeeze(1)


model = MatrixFactorization(6040, 3706).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
loss_fn = nn.MSELoss()
for epoch in range(10):
    for user, item, rating in loader:
        pred = model(user.cuda(), item.cuda())
        loss = loss_fn(pred, rating.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
