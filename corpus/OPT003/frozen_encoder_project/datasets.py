import torch

from detector import FaceDetector


class EncodedFaces(torch.utils.data.Dataset):
    """Crops each video's faces with a detector and encodes them with a
    frozen encoder once, caching the codes."""

    def __init__(self, videos, encoder, device="cuda"):
        self.videos = videos
        self.encoder = encoder
        self.detector = FaceDetector().to(device).eval()
        self.cache = {}

    def __len__(self):
        return len(self.videos)

    def __getitem__(self, i):
        if i not in self.cache:
            with torch.no_grad():
                faces = self.detector(self.videos[i].frames.cuda())
                self.cache[i] = self.encoder(faces).flatten(1).cpu()
        return self.cache[i], self.videos[i].label
