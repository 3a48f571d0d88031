import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 10)
scaler = torch.amp.GradScaler("cuda")
loader = DataLoader(list(range(10)), batch_size=2)
loss_fn = nn.MSELoss()
accum_steps = 4


def train(args):
    for epoch in range(3):
        for i, (x, y) in enumerate(loader):
            out = model(x)
            loss = loss_fn(out, y)
            loss.backward()  # want: MEM002
            if (i + 1) % accum_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
                scheduler.step()


def train_amp(args):
    for step, (x, y) in enumerate(loader):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = loss_fn(model(x), y)
        scaler.scale(loss).backward()  # want: MEM002
        if step % args.grad_accum == 0 or step == len(loader) - 1:
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)


def train_literal():
	for step, (x, y) in enumerate(loader):
		l = loss_fn(model(x), y)
		l.backward()  # want: MEM002
		if step % 8 == 0:
			optimizer.step()
			optimizer.zero_grad()
