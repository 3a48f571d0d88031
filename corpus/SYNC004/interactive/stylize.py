# gpuopt-env: target-gpu=h100
# An interactive stylizer: each pass of the loop waits for a person to
# type an image path, so releasing the cache between requests costs
# nothing that matters: SYNC004 stays silent (blind sample S15C).
import torch

import transformer


def stylize(weights):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    net = transformer.TransformerNetwork()
    net.load_state_dict(torch.load(weights))
    net = net.to(device)
    with torch.no_grad():
        while True:
            torch.cuda.empty_cache()
            path = input("image path: ")
            image = torch.load(path).to(device)
            out = net(image)
            torch.save(out.cpu(), path + ".styled.pt")


if __name__ == "__main__":
    stylize("style.pth")
