# An evaluation loop that moves its logits to the host with .to("cpu")
# on every batch (blind sample S22A's question-answering validation): that
# copy waits for the GPU as .cpu() does, so the loss total's .item() adds
# no wait of its own. Silent; a loop without the copy keeps its finding.
import torch
import torchvision


def validate(model, batches, criterion):
    model.eval()
    running_loss = 0.0
    all_logits = []
    with torch.no_grad():
        for ids, labels in batches:
            logits = model(ids.cuda())
            loss = criterion(logits, labels.cuda())
            all_logits.append(logits.to("cpu"))
            running_loss += loss.item()
    return running_loss / len(batches), torch.cat(all_logits)


def validate_on_device(model, batches, criterion):
    model.eval()
    running_loss = 0.0
    with torch.no_grad():
        for ids, labels in batches:
            logits = model(ids.cuda())
            loss = criterion(logits, labels.cuda())
            running_loss += loss.item()  # want: SYNC002
    return running_loss / len(batches)


model = torchvision.models.resnet50().cuda()
for epoch in range(10):
    validate(model, [], torch.nn.CrossEntropyLoss())
    validate_on_device(model, [], torch.nn.CrossEntropyLoss())
