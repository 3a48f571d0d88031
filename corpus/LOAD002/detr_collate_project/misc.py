# DETR-style utilities: a NestedTensor (images and their padding mask),
# with no pin_memory method, built by the loaders' collate_fn.
import torch


class NestedTensor:
    def __init__(self, tensors, mask):
        self.tensors = tensors
        self.mask = mask

    def to(self, device, non_blocking=False):
        return NestedTensor(self.tensors.to(device, non_blocking=non_blocking), self.mask.to(device, non_blocking=non_blocking))


def nested_tensor_from_tensor_list(tensor_list):
    h = max(t.shape[1] for t in tensor_list)
    w = max(t.shape[2] for t in tensor_list)
    tensors = torch.zeros(len(tensor_list), 3, h, w)
    mask = torch.ones(len(tensor_list), h, w, dtype=torch.bool)
    for img, pad, m in zip(tensor_list, tensors, mask):
        pad[:, : img.shape[1], : img.shape[2]].copy_(img)
        m[: img.shape[1], : img.shape[2]] = False
    return NestedTensor(tensors, mask)


def collate_fn(batch):
    batch = list(zip(*batch))
    batch[0] = nested_tensor_from_tensor_list(batch[0])
    return tuple(batch)


def grounding_collate_fn(raw_batch):
    # TransVG's collate (blind sample S32D): builds the NestedTensor itself
    raw_batch = list(zip(*raw_batch))
    img = torch.stack(raw_batch[0])
    img_data = NestedTensor(img, torch.zeros(img.shape[0], img.shape[2], img.shape[3], dtype=torch.bool))
    return img_data, torch.stack(raw_batch[1])
