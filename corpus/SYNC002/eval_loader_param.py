# A validation pass over a loader handed in as a parameter (blind samples
# S38E's ingredient regressor, S38M's gait validator): an evaluation pass
# over a DataLoader, where accumulating on the device measured nothing on
# an H200 (corpus/gpu/sync002_eval.py). The training loop's read, logged
# only every few steps, is reported.
import torch
import torchvision

model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def validate(model, val_loader):
    model.eval()
    total_loss = 0.0
    with torch.no_grad():
        for inputs, targets in val_loader:
            outputs = model(inputs.cuda())
            loss = torch.nn.functional.cross_entropy(outputs, targets.cuda())
            total_loss += loss.item()
    return total_loss / len(val_loader)


def train(train_loader, val_loader, epochs):
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for step, (inputs, targets) in enumerate(train_loader):
            loss = torch.nn.functional.cross_entropy(model(inputs.cuda()), targets.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()  # want: SYNC002
            if step % 100 == 99:
                print(epoch, step, running / 100)
                running = 0.0
        print(validate(model, val_loader))
