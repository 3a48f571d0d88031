# Two loops whose per-step copies are not what makes the step wait:
# - the running totals are shown every step by a progress bar, so the
#   host needs each step's .item() anyway (blind sample S17E's pointMLP);
# - the ids come from the loader's batch dict, unpacked into a tuple, and
#   never leave the host (blind sample S17F's QUEST solution).
# The loop that only copies its predictions is reported.
import time
import torch


def progress_bar(current, total, msg):
    print(current, total, msg)


def train(net, trainloader, optimizer, criterion):
    train_loss, correct, total = 0.0, 0, 0
    train_pred = []
    for batch_idx, (data, label) in enumerate(trainloader):
        data, label = data.cuda(), label.cuda()
        logits = net(data)
        loss = criterion(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        preds = logits.max(dim=1)[1]
        train_pred.append(preds.detach().cpu().numpy())
        total += label.size(0)
        correct += preds.eq(label).sum().item()
        progress_bar(batch_idx, len(trainloader), "Loss: %.3f | Acc: %.3f%%" % (train_loss / (batch_idx + 1), 100.0 * correct / total))
    return train_pred


@torch.no_grad()
def infer(model, test_loader):
    ids, preds = [], []
    for idx, batch in enumerate(test_loader):
        id, input_ids = (batch["idx"], batch["input_ids"])
        ids.extend(id.cpu().numpy())
        t_step = time.perf_counter()  # host work each step (timing, logging)
        preds.append(model(input_ids.cuda()).cpu())  # want: SYNC001
    return ids, torch.cat(preds)
