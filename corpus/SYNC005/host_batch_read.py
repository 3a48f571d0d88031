# A test script prints each image's ground-truth count, an element of the
# loader's batch still on the host: reading it waits for nothing, and the
# message names the read that does wait (the prediction's sum). A print of
# only host values is silent (blind sample S14I's crowd-counting test).
import torch

model = torch.nn.Conv2d(3, 1, 3).cuda()


def test(dataloader):
    model.eval()
    with torch.no_grad():
        for inputs, count, name in dataloader:
            outputs = model(inputs.cuda())
            print(name, count[0].item(), torch.sum(outputs).item())  # want: SYNC005
            print(name, count[0].item())
