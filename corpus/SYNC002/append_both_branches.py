# A forecasting trainer with an optional AMP path: both branches append
# loss.item() to the epoch's list, which is read only after the loop. The
# other branch's append is not a read of the list: each append is a
# per-step wait (a hint: the list's readers see numbers today).
import numpy as np
import torch


class Experiment:
    def train(self, train_loader, criterion, model_optim, scaler):
        for epoch in range(self.args.train_epochs):
            train_loss = []
            self.model.train()
            for i, (batch_x, batch_y) in enumerate(train_loader):
                model_optim.zero_grad()
                batch_x = batch_x.float().to(self.device)
                batch_y = batch_y.float().to(self.device)
                if self.args.use_amp:
                    with torch.autocast("cuda", dtype=torch.bfloat16):
                        loss = criterion(self.model(batch_x), batch_y)
                        train_loss.append(loss.item())  # want: SYNC002
                else:
                    loss = criterion(self.model(batch_x), batch_y)
                    train_loss.append(loss.item())  # want: SYNC002
                if (i + 1) % 100 == 0:
                    print(f"iter {i + 1}: loss {loss.item():.7f}")
                loss.backward()
                model_optim.step()
            print(epoch, np.average(train_loss))


device = torch.device("cuda")
