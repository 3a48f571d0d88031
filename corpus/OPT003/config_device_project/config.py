import torch


class TrainConfig:
    def __init__(self, gpu=0, batch_size=256, lr=0.1):
        self.batch_size = batch_size
        self.lr = lr
        self.device = "cuda:{}".format(gpu) if torch.cuda.is_available() else "cpu"
