# gpuopt-env: cpus=16
# A prediction script that streams a long video through an
# IterableDataset in one branch and indexes frames in the other (blind
# sample S35M's TrackNetV3): the streaming dataset never asks which worker
# it runs in, so more workers would each replay the whole video. Only the
# indexed branch's loader gets LOAD001.
import cv2
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, IterableDataset


class VideoStream(IterableDataset):
    def __init__(self, path, seq_len=8):
        self.path = path
        self.seq_len = seq_len

    def __iter__(self):
        cap = cv2.VideoCapture(self.path)
        frames = []
        ok, frame = cap.read()
        while ok:
            frames.append(frame)
            if len(frames) == self.seq_len:
                yield torch.from_numpy(np.stack(frames)).float()
                frames = []
            ok, frame = cap.read()


class FrameDataset(Dataset):
    def __init__(self, frames, seq_len=8):
        self.frames = frames
        self.seq_len = seq_len

    def __len__(self):
        return len(self.frames) // self.seq_len

    def __getitem__(self, i):
        clip = [cv2.imread(f) for f in self.frames[i * self.seq_len:(i + 1) * self.seq_len]]
        return torch.from_numpy(np.stack(clip)).float()


def predict(model: nn.Module, path, frames, large_video):
    model = model.cuda().eval()
    if large_video:
        dataset = VideoStream(path)
        loader = DataLoader(dataset, batch_size=16)
    else:
        dataset = FrameDataset(frames)
        loader = DataLoader(dataset, batch_size=16)  # want: LOAD001
    outputs = []
    with torch.no_grad():
        for clips in loader:
            outputs.append(model(clips.cuda()).argmax(-1).cpu())
    return torch.cat(outputs)
