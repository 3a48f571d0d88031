import torch
import transformers

model = transformers.AutoModelForMaskedLM.from_pretrained("bert-base-uncased")  # want: MEM001
opt = torch.optim.AdamW(model.parameters())
for batch in []:
    model(**batch).loss.backward()
    opt.step()
