# The forward already runs under inference_mode inside the loop: wrapping the
# loop as well adds nothing.
import torch

model = torch.nn.Linear(4, 2).cuda()
batches = [torch.randn(8, 4) for _ in range(3)]
model.eval()
for batch in batches:
    with torch.inference_mode():
        out = model(batch.cuda())
    print(out.argmax(-1))

model.eval()
for batch in batches:  # want: MEM003
    with torch.inference_mode():
        first = model(batch.cuda())
    second = model(batch.cuda())  # this forward records a graph
