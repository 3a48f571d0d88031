# gpuopt-env: target-gpu=h100
# Lightning Fabric with precision="bf16-mixed" runs the forward under
# autocast: no fp32 matmuls are left for TF32. Silent.
import torch
from lightning import Fabric
from transformers import AutoModelForSequenceClassification

fabric = Fabric(accelerator="cuda", devices=1, precision="bf16-mixed")
model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-5)
model, optimizer = fabric.setup(model, optimizer)

for epoch in range(3):
    for step in range(2916):
        input_ids = torch.randint(0, 30522, (12, 512), device=fabric.device)
        labels = torch.randint(0, 2, (12,), device=fabric.device)
        loss = model(input_ids=input_ids, labels=labels).loss
        optimizer.zero_grad()
        fabric.backward(loss)
        optimizer.step()
