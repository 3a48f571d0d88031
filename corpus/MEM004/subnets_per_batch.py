# A supernet's step (blind sample S21J's once-for-all): each batch
# samples a few subnets, backpropagates each, and keeps their losses in a
# list made fresh for that batch; the optimizer is held by another object,
# and the loader too, so neither is recognised as such. The list keeps one batch's graphs, not
# every step's: silent. An epoch's list is still reported.
import torch


def train_epoch(run_manager, supernet, n_subnets=4):
    epoch_losses = []
    for i, (images, labels) in enumerate(run_manager.run_config.train_loader):
        images, labels = images.cuda(), labels.cuda()
        supernet.zero_grad()
        loss_of_subnets = []
        for _ in range(n_subnets):
            supernet.sample_active_subnet()
            loss = torch.nn.functional.cross_entropy(supernet(images), labels)
            loss_of_subnets.append(loss)
            epoch_losses.append(loss)  # want: MEM004
            loss.backward()
        run_manager.optimizer.step()
        print(sum(l.item() for l in loss_of_subnets) / n_subnets)
    return epoch_losses
