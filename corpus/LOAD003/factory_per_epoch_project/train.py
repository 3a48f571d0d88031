# Builds its training loader anew every epoch (len() of it in the step
# loop is still that pass's loader); the evaluation loader once.
import torch
import torch.nn as nn

import loaders

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x_train, y_train = torch.randn(4096, 22, 500), torch.randint(0, 4, (4096,))
x_eval, y_eval = torch.randn(512, 22, 500), torch.randint(0, 4, (512,))
model = nn.Sequential(nn.Flatten(), nn.Linear(22 * 500, 4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
criterion = nn.CrossEntropyLoss()
val_data = loaders.eval_loader(x_eval, y_eval)
for epoch in range(300):
    train_data = loaders.epoch_loader(x_train, y_train)
    model.train()
    for inputs, target in train_data:
        inputs, target = inputs.to(device, non_blocking=True), target.to(device, non_blocking=True)
        loss = criterion(model(inputs), target) / len(train_data)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        for inputs, target in val_data:
            model(inputs.to(device, non_blocking=True))
