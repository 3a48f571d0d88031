# gpuopt-env: target-gpu=h100
# An evaluation whose step converts its loss with float() on every batch
# (under an `if` whose condition the loop never changes): float() of a
# tensor waits for the GPU as .item() does, so deferring the appended
# copies saves no wait and SYNC001 stays silent (blind sample S24E).
import numpy as np
import torch


def evaluate(model, loader, device, criterion=None):
    loss_sum = 0.0
    labels_all, predictions_all = [], []
    model.eval()
    with torch.no_grad():
        for batch in loader:
            inputs = batch["input"].to(device)
            labels = batch["label"].to(device)
            logits = model(inputs)
            if criterion is not None:
                loss_sum += float(criterion(logits, labels)) * int(labels.size(0))
            labels_all.append(labels.cpu().numpy())
            predictions_all.append(logits.argmax(dim=1).cpu().numpy())
    return loss_sum, np.concatenate(labels_all), np.concatenate(predictions_all)


if __name__ == "__main__":
    net = torch.nn.Linear(8, 3).cuda()
    data = [{"input": torch.randn(4, 8), "label": torch.randint(0, 3, (4,))}]
    print(evaluate(net, data, "cuda", torch.nn.CrossEntropyLoss()))
