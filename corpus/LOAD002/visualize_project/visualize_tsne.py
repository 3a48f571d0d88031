# A visualisation script: one embedding pass over the test set, through a
# helper of another module that trains nothing, then a t-SNE that dwarfs
# it (blind sample S17F). Pinning would save a sliver of a pass that runs
# once: no finding.
import torch
import torchvision
from sklearn.manifold import TSNE
from torch.utils.data import DataLoader

from utils import get_embeddings_from_dataloader


def main(data_dir, batch_size=64, n_workers=8):
    device = torch.device("cuda")
    model = torchvision.models.resnet50().to(device)
    test_set = torchvision.datasets.ImageFolder(data_dir, transform=torchvision.transforms.ToTensor())
    test_loader = DataLoader(test_set, batch_size=batch_size, shuffle=False, num_workers=n_workers)
    print(f"Initialized test loader: {test_loader.dataset}")
    embeddings, labels = get_embeddings_from_dataloader(test_loader, model, device)
    points = TSNE(n_components=2, n_iter=2000).fit_transform(embeddings)
    print(points.shape, labels.shape)


if __name__ == "__main__":
    main("data/test")
