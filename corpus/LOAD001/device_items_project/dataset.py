# A transcription dataset (blind sample S32G's onsets-and-frames): the base
# class's __getitem__ moves every item to the GPU; the subclass the script
# builds only names its groups.
import torch
from torch.utils.data import Dataset

DEFAULT_DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class PianoRollAudioDataset(Dataset):
    def __init__(self, groups, device=DEFAULT_DEVICE):
        self.device = device
        self.files = [f"{group}/{i}.pt" for group in groups for i in range(1000)]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        data = torch.load(self.files[index])
        begin = torch.randint(0, data["audio"].shape[0] - 16000, ()).item()
        return dict(audio=data["audio"][begin:begin + 16000].to(self.device), label=data["label"].to(self.device))


class MAESTRO(PianoRollAudioDataset):
    def __init__(self, groups=("train",), device=DEFAULT_DEVICE):
        super().__init__(groups, device)


class Spectra(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        return torch.load(self.files[index])


class LongSpectra(Spectra):
    pass
