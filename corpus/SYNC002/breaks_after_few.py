# A validation helper that reads ten batches and stops (`if idx ==
# eval_iters: break`): its .item() calls are ten per call, every few
# hundred training steps, not one per step of a pass (blind sample S26C's
# steer). The training loop's running loss is reported.
import torch
import torch.nn.functional as F


def get_val_loss(model, val_loader, eval_iters=10):
    val_loss = 0
    model.eval()
    with torch.no_grad():
        for idx, (x, y) in enumerate(val_loader):
            if idx == eval_iters:
                break
            loss = F.mse_loss(model(x.cuda()), y.cuda())
            val_loss += loss.item()
    model.train()
    return val_loss / eval_iters


def train(model, train_loader, val_loader, epochs=10):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for epoch in range(epochs):
        total = 0.0
        for step, (x, y) in enumerate(train_loader):
            loss = F.mse_loss(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()  # want: SYNC002
            if step % 300 == 0:
                print(get_val_loss(model, val_loader))
        print(total)


if __name__ == "__main__":
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 256, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(256, 3, 3, padding=1))
    train(net.cuda(), [], [])
