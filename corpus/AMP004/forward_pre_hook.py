# A hand-written spectral norm whose forward pre-hook stores its
# power-iteration vector on the module: under autocast that vector would be
# stored in bf16, and the sampler's next forward outside autocast would
# multiply an fp32 weight by it and raise. The finding stays, without a wrap.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralNorm:
    def __init__(self, name):
        self.name = name

    def compute_weight(self, module):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        weight_mat = weight.contiguous().view(weight.size(0), -1)
        with torch.no_grad():
            v = weight_mat.t() @ u
            v = v / v.norm()
            u = weight_mat @ v
            u = u / u.norm()
        sigma = u @ weight_mat @ v
        return weight / sigma, u

    @staticmethod
    def apply(module, name):
        fn = SpectralNorm(name)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_orig", weight)
        module.register_buffer(name, weight)
        module.register_buffer(name + "_u", weight.new_empty(weight.size(0)).normal_())
        module.register_forward_pre_hook(fn)
        return fn

    def __call__(self, module, input):
        weight_sn, u = self.compute_weight(module)
        setattr(module, self.name, weight_sn)
        setattr(module, self.name + "_u", u)


class EnergyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 256, 3, padding=1)
        self.conv2 = nn.Conv2d(256, 512, 3, padding=1)
        SpectralNorm.apply(self.conv1, "weight")
        SpectralNorm.apply(self.conv2, "weight")
        self.head = nn.Linear(512, 1)

    def forward(self, x):
        x = F.leaky_relu(self.conv1(x), 0.2)
        x = F.leaky_relu(self.conv2(x), 0.2)
        return self.head(x.mean((2, 3)))


def train(loader, sample_step=60):
    model = EnergyModel().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.0, 0.999))
    for pos, _ in loader:
        pos = pos.cuda()
        neg = torch.rand_like(pos)
        neg.requires_grad = True
        model.eval()
        for _ in range(sample_step):
            neg_out = model(neg)
            neg_out.sum().backward()
            neg.data.add_(-10, neg.grad.data)
            neg.grad.zero_()
            neg.data.clamp_(0, 1)
        neg = neg.detach()
        model.train()
        model.zero_grad()
        pos_out = model(pos)  # want: AMP004
        neg_out = model(neg)
        loss = (pos_out - neg_out).mean() + 0.1 * (pos_out ** 2 + neg_out ** 2).mean()
        loss.backward()
        optimizer.step()
