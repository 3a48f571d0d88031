# gpuopt-env: target-gpu=h100
import torch
import transformers

# 80 GB: memory is rarely the limit, stay silent.
model = transformers.AutoModelForMaskedLM.from_pretrained("bert-base-uncased")
opt = torch.optim.AdamW(model.parameters())
for batch in []:
    model(**batch).loss.backward()
    opt.step()
