# fp16 autocast with a GradScaler, and a tensor the script makes fp16
# itself (`.half()`) that meets the autocast outputs outside autocast (a
# CLIP adapter's class embeddings, blind sample S37C's CLIP-LoRA): once
# the autocast is bf16, `image_features @ text_features.t()` multiplies
# bf16 by fp16 and raises. The finding stays, without a fix.
import torch
import torch.nn.functional as F


def train(model, loader, text_embeddings, optimizer, steps):
    scaler = torch.cuda.amp.GradScaler()  # want: AMP003
    text_features = text_embeddings.t().half()
    for images, target in loader:
        images, target = images.cuda(non_blocking=True), target.cuda(non_blocking=True)
        with torch.amp.autocast(device_type="cuda", dtype=torch.float16):
            image_features = model.encode_image(images)
        logits = 100.0 * image_features @ text_features
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
