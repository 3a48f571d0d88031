# gpuopt-env: target-gpu=h100
# The evaluation loader's batch is the whole test set: one batch a pass,
# which workers would not build any faster, so LOAD001 stays silent
# (blind sample S15E's keyword-spotting evaluation).
import torch
import torchvision


def evaluate(model, test_set):
    loader = torch.utils.data.DataLoader(test_set, batch_size=len(test_set))
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            accuracy = (model(x.cuda()).argmax(1) == y.cuda()).float().mean()
    return accuracy


if __name__ == "__main__":
    test_set = torchvision.datasets.MNIST("data", train=False, transform=torchvision.transforms.ToTensor())
    evaluate(torchvision.models.resnet18(num_classes=10).cuda(), test_set)
