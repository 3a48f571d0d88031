import torch


def smart_inference_mode(enabled=True):
    """The project's own decorator: inference_mode on recent torch, no_grad
    before; its name says what it does."""

    def decorate(fn):
        return (torch.inference_mode if enabled else torch.no_grad)()(fn)

    return decorate


# Silent: the evaluation runs under the project's no-grad decorator.
@smart_inference_mode()
def run(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x.cuda()).argmax(1) == y.cuda()).sum()
    return correct
