# An adversarial loss: ten PGD steps, each a forward and a backward pass
# of the model, before the loss the training step backpropagates.
import torch
import torch.nn.functional as F


def pgd_loss(model, x, y, step_size=2 / 255, epsilon=8 / 255, steps=10):
    x_adv = x + 0.001 * torch.randn_like(x)
    for _ in range(steps):
        x_adv.requires_grad_()
        with torch.enable_grad():
            loss = F.cross_entropy(model(x_adv), y)
        grad = torch.autograd.grad(loss, [x_adv])[0]
        x_adv = torch.min(torch.max(x_adv.detach() + step_size * grad.sign(), x - epsilon), x + epsilon)
    return F.cross_entropy(model(x_adv.clamp(0, 1)), y)
