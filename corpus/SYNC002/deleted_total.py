# A running loss read every 400 steps and deleted after the epoch (blind
# sample S38AM's tree-species trainer): the fix keeps the total on the
# device and converts it where it is read, and leaves `del running_loss`
# alone (`del float(running_loss)` does not compile: the fix that wrote
# it was a broken one).
import torch
import torchvision

model = torchvision.models.densenet201().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(dataloader, epochs):
    for epoch in range(epochs):
        running_loss = 0.0
        for i, (inputs, labels) in enumerate(dataloader):
            loss = torch.nn.functional.cross_entropy(model(inputs.cuda()), labels.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running_loss += loss.item()  # want: SYNC002
            if i % 400 == 399:
                print("[%d, %d] loss: %.4f" % (epoch + 1, i + 1, running_loss / 400))
                running_loss = 0.0
        del running_loss
        torch.cuda.empty_cache()
