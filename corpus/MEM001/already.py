# gpuopt-env: target-gpu=t4
import torch
import transformers

model = transformers.AutoModelForMaskedLM.from_pretrained("bert-base-uncased")
model.gradient_checkpointing_enable()
opt = torch.optim.AdamW(model.parameters())
for batch in []:
    model(**batch).loss.backward()
    opt.step()
