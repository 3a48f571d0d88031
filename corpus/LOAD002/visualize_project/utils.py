import torch


@torch.no_grad()
def get_embeddings_from_dataloader(loader, model, device):
    model.eval()
    embeddings, labels = [], []
    for images, targets in loader:
        embeddings.append(model(images.to(device)))
        labels.append(targets)
    return torch.cat(embeddings).cpu().numpy(), torch.cat(labels).numpy()
