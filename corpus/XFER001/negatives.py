import torch

device = torch.device("cuda")
n = 16
g = torch.Generator()
mean = torch.zeros(n)

# .to(dtype) is not a move.
a = torch.zeros(n).to(torch.float16)
# Already on the device, or keywords that tie the factory to the CPU.
b = torch.zeros(n, device=device)
c = torch.zeros(n, requires_grad=True).cuda()
d = torch.randn(n, generator=g).to(device)
e = torch.ones(n, pin_memory=True).to(device)
# normal with tensor arguments: the output follows their device.
f = torch.normal(mean, 1.0).cuda()
# Not a factory.
h = torch.cat([mean, mean]).cuda()
# A name the rule cannot tell is a device.
spec = get_target()
k = torch.zeros(n).to(spec)
# .to with more than the device.
m = torch.zeros(n).to(device, torch.float16)
n2 = torch.zeros(n).to(device, dtype=torch.float16)
