"""A likelihood loss over the observed entries only."""
import torch


class MaskedGaussianLoss(torch.nn.Module):
    def forward(self, mu, sigma, labels):
        observed = (labels != 0)
        dist = torch.distributions.normal.Normal(mu[observed], sigma[observed])
        return -dist.log_prob(labels[observed])
