# A Hugging Face model loaded with device_map= is placed by Accelerate.
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
opt = torch.optim.AdamW(model.parameters())
loader = DataLoader([torch.zeros(8, dtype=torch.long)] * 4, batch_size=2)
for batch in loader:
    out = model(input_ids=batch, labels=batch)
    out.loss.backward()
    opt.step()
