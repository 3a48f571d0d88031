import os

import torch


class BaseModel:
    def __init__(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.device = torch.device("cuda:{}".format(self.gpu_ids[0])) if self.gpu_ids else torch.device("cpu")
        self.loss_names = []
        self.optimizers = []

    def get_current_losses(self):
        return {name: float(getattr(self, "loss_" + name)) for name in self.loss_names}

    def save_networks(self, epoch, net):
        path = os.path.join(self.opt.checkpoints_dir, "%s_net.pth" % epoch)
        torch.save(net.cpu().state_dict(), path)
        if self.gpu_ids:
            net.cuda(self.gpu_ids[0])
