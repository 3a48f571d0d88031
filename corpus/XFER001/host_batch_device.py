# The decoder input is built on the device of a batch that the loop keeps
# on the host (blind sample S17B's SegRNN predict()): `.to(batch_y.device)`
# copies nothing, and device= would change nothing. In the training loop
# the batch is moved first, and the same line is reported.
import torch


def train(model, loader, optimizer, pred_len=96, label_len=48):
    for batch_x, batch_y in loader:
        batch_x = batch_x.float().to("cuda")
        batch_y = batch_y.float().to("cuda")
        dec_inp = torch.zeros([batch_y.shape[0], pred_len, batch_y.shape[2]]).float().to(batch_y.device)  # want: XFER001
        dec_inp = torch.cat([batch_y[:, :label_len, :], dec_inp], dim=1)
        loss = (model(batch_x, dec_inp) - batch_y[:, -pred_len:, :]).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def predict(model, pred_loader, pred_len=96, label_len=48):
    preds = []
    for batch_x, batch_y in pred_loader:
        batch_x = batch_x.float().to("cuda")
        batch_y = batch_y.float()
        dec_inp = torch.zeros([batch_y.shape[0], pred_len, batch_y.shape[2]]).float().to(batch_y.device)
        dec_inp = torch.cat([batch_y[:, :label_len, :], dec_inp], dim=1).float().to("cuda")
        preds.append(model(batch_x, dec_inp).cpu())
    return torch.cat(preds)
