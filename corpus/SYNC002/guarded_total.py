# A running total that grows only under the logging guard (blind sample
# S19D's ASGCN): its .item() runs every log_step steps, not every step, so
# it is left alone; the loss total beside it, read under the same guard but
# grown every step, is still reported.
import torch
import torch.nn.functional as F

model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 10)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
log_step = 50
global_step = 0
for epoch in range(10):
    n_correct, n_total, running = 0, 0, 0.0
    for step in range(1000):
        global_step += 1
        x = torch.randn(256, 1024, device="cuda")
        targets = torch.randint(0, 10, (256,), device="cuda")
        outputs = model(x)
        loss = F.cross_entropy(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()  # want: SYNC002
        if global_step % log_step == 0:
            n_correct += (torch.argmax(outputs, -1) == targets).sum().item()
            n_total += len(outputs)
            print(f"acc {n_correct / n_total:.3f} loss {running / log_step:.4f}")
            running = 0.0
