# The training loop of the experiment, in its own module.
import torch


def trainer(model, training_set, iterations):
    optimizer = torch.optim.Adam(model.parameters())
    for i in range(iterations):
        x, y = next(training_set)
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model
