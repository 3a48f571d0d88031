# gpuopt-env: target-gpu=h100
# A TTS model's step logs spectrograms through NumPy: fp16 tensors convert
# (NumPy has float16), bf16 ones raise TypeError, so the switch is not
# applied until they are converted with .float(). The finding stays.
import torch

model = torch.nn.Linear(80, 80).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scaler = torch.cuda.amp.GradScaler()  # want: AMP003

for step in range(10):
    x = torch.randn(4, 80, device="cuda")
    with torch.cuda.amp.autocast():
        y_mel = model(x)
        loss = y_mel.float().pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    if step % 5 == 0:
        image = y_mel[0].data.cpu().numpy()
