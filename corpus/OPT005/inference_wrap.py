# One function trains each fold (DataParallel around the trained model:
# a finding) and then reloads the best checkpoint, wraps it again and
# puts it in eval mode for one prediction pass: DDP is training advice,
# no finding there.
import torch
import torch.nn as nn


def train_and_predict(model_class, train_loader, valid_loader, epochs, gpus):
    model = model_class().cuda()
    if len(gpus) > 1:
        model = nn.DataParallel(model, device_ids=gpus)  # want: OPT005
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = nn.functional.binary_cross_entropy_with_logits(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), "fold.ckpt")

    model = model_class().cuda()
    model.load_state_dict(torch.load("fold.ckpt"))
    if len(gpus) > 1:
        model = nn.DataParallel(model, device_ids=gpus)
    model.eval()
    preds = []
    with torch.no_grad():
        for x, _ in valid_loader:
            preds.append(model(x.cuda()))
    return torch.cat(preds).cpu()
