# gpuopt-env: target-gpu=h100
# An image-translation model as pix2pix, CycleGAN and the projects built on
# them write it: the networks come from networks.define_G/define_D, which
# move them to the first of gpu_ids when there is one (the default "0"):
# CUDA when a GPU is there.
import torch

from . import networks
from .base_model import BaseModel


class Pix2PixModel(BaseModel):
    def __init__(self, opt):
        BaseModel.__init__(self, opt)
        self.loss_names = ["G_GAN", "G_L1", "D"]
        self.netG = networks.define_G(3, 3, 64, self.gpu_ids)
        self.netD = networks.define_D(6, 64, self.gpu_ids)
        self.criterionGAN = torch.nn.MSELoss()
        self.criterionL1 = torch.nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=(0.5, 0.999))  # want: OPT001
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=(0.5, 0.999))  # want: OPT001
        self.optimizers = [self.optimizer_G, self.optimizer_D]

    def set_input(self, data):
        self.real_A = data["A"].to(self.device)
        self.real_B = data["B"].to(self.device)

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1).detach())
        pred_real = self.netD(torch.cat((self.real_A, self.real_B), 1))
        self.loss_D = 0.5 * (self.criterionGAN(pred_fake, torch.zeros_like(pred_fake)) + self.criterionGAN(pred_real, torch.ones_like(pred_real)))
        self.loss_D.backward()

    def backward_G(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1))
        self.loss_G_GAN = self.criterionGAN(pred_fake, torch.ones_like(pred_fake))
        self.loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * 100.0
        self.loss_G = self.loss_G_GAN + self.loss_G_L1
        self.loss_G.backward()

    def data_dependent_initialize(self, data):
        self.set_input(data)
        self.forward()
        self.backward_G()
        self.optimizer_G.zero_grad()

    def optimize_parameters(self):
        self.forward()
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
