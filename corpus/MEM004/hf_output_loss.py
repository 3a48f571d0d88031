# A Hugging Face question-answering loop: the loss is `output.loss`, summed
# into train_loss (reset every logging_step steps) and backpropagated
# through Accelerate or directly; `output` is bound again by the evaluation
# after the loop. The sum keeps logging_step graphs alive: detach it.
# Below, a loss summed through a cast (loss.float()) keeps its graph too.
import torch


def train(model, train_loader, dev_loader, optimizer, accelerator, fp16_training, logging_step=100):
    step = 1
    train_loss = train_acc = 0
    for data in train_loader:
        output = model(input_ids=data[0], start_positions=data[3], end_positions=data[4])
        train_loss += output.loss  # want: MEM004
        if fp16_training:
            accelerator.backward(output.loss)
        else:
            output.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        step += 1
        if step % logging_step == 0:
            print(f"loss = {train_loss.item() / logging_step:.3f}")
            train_loss = train_acc = 0
    model.eval()
    with torch.no_grad():
        for data in dev_loader:
            output = model(input_ids=data[0])


def train_cast(model, loader, optimizer):
    loss_f = 0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss_f += loss.float()  # want: MEM004
        loss.backward()
        optimizer.step()
    return loss_f
