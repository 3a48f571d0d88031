# The project's data module builds the loaders and returns them; its
# collate function pads each batch of formula images to the batch's
# largest (a running maximum of the items' shapes), so every batch has
# its own height and width.
import torch
from torch.utils.data import DataLoader


def collate_fn(batch_images):
    max_width, max_height = 0, 0
    for image, label in batch_images:
        max_height = image.shape[1] if image.shape[1] > max_height else max_height
        max_width = image.shape[2] if image.shape[2] > max_width else max_width
    images = torch.zeros((len(batch_images), 1, max_height, max_width))
    for i, (image, label) in enumerate(batch_images):
        images[i][:, : image.shape[1], : image.shape[2]] = image
    return images, torch.tensor([label for _, label in batch_images])


collate_fn_dict = {"collate_fn": collate_fn}


def get_dataset(params, train_set, eval_set):
    train_loader = DataLoader(train_set, batch_size=params["batch_size"], shuffle=True, num_workers=4, collate_fn=collate_fn_dict[params["collate_fn"]], pin_memory=True)
    eval_loader = DataLoader(eval_set, batch_size=1, shuffle=False, num_workers=4, collate_fn=collate_fn_dict[params["collate_fn"]], pin_memory=True)
    return train_loader, eval_loader
