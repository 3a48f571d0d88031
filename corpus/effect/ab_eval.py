#!/usr/bin/env python3
"""A/B inside one process (issue 13, the ImageNet evaluation row): ResNet-50 evaluation fed by a FakeData loader
(16 workers, batch 256, as imagenet --evaluate --dummy -j 16), alternating
blocks of batches with and without bf16 autocast (and channels_last), on the
same warm loader; then the same without a loader (batches already on the
GPU) to show the GPU-side gain."""
import sys, time, statistics, torch, torchvision
import torchvision.datasets as datasets, torchvision.transforms as T

def main():
    torch.backends.cudnn.benchmark = False
    model = torchvision.models.resnet50().cuda().eval()
    cl = torchvision.models.resnet50().cuda().eval().to(memory_format=torch.channels_last)
    ds = datasets.FakeData(100000, (3, 224, 224), 1000, T.ToTensor())
    loader = torch.utils.data.DataLoader(ds, batch_size=256, num_workers=16, pin_memory=True)
    crit = torch.nn.CrossEntropyLoss()
    def step(m, x, y, amp):
        x = x.cuda(non_blocking=True); y = y.cuda(non_blocking=True)
        if amp:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                out = m(x); loss = crit(out, y)
        else:
            out = m(x); loss = crit(out, y)
        out.float().topk(5); return loss
    it = iter(loader)
    configs = [("fp32", model, False), ("bf16+cl", cl, True), ("bf16", model, True)]
    res = {c[0]: [] for c in configs}
    with torch.no_grad():
        for _ in range(16):
            step(model, *next(it), False)
        torch.cuda.synchronize()
        for rnd in range(4):
            for name, m, amp in (configs if rnd % 2 == 0 else configs[::-1]):
                t0 = time.perf_counter()
                for _ in range(16):
                    step(m, *next(it), amp)
                torch.cuda.synchronize()
                res[name].append((time.perf_counter() - t0) / 16 * 1000)
        print("loader-fed ms/batch:", {k: "%.1f (%s)" % (statistics.mean(v), " ".join("%.1f" % x for x in v)) for k, v in res.items()})
        x, y = next(it); x, y = x.cuda(), y.cuda()
        for name, m, amp in configs:
            for _ in range(5): step(m, x, y, amp)
            torch.cuda.synchronize(); t0 = time.perf_counter()
            for _ in range(20): step(m, x, y, amp)
            torch.cuda.synchronize()
            print("GPU-resident %s: %.1f ms/batch" % (name, (time.perf_counter() - t0) / 20 * 1000))

if __name__ == "__main__":
    main()
