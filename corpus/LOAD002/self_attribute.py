# gpuopt-env: target-gpu=h100
# A trainer class builds its loader in one method and iterates it, through
# a named progress bar, in another: the loader is `self.dataloader`.
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

import utils


class TrainerGAN:
    def __init__(self, G, config):
        self.G = G
        self.config = config
        self.dataloader = None

    def prepare_environment(self):
        dataset = utils.get_dataset(self.config["workspace_dir"])
        self.dataloader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=2)  # want: LOAD002
        self.G = self.G.cuda()

    def train(self):
        self.prepare_environment()
        opt = torch.optim.Adam(self.G.parameters(), lr=1e-4, fused=True)
        for epoch in range(self.config["n_epoch"]):
            progress_bar = tqdm(self.dataloader)
            for data in progress_bar:
                loss = self.G(data.cuda()).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
