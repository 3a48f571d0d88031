# gpuopt-env: target-gpu=rtx-4090
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()  # want: MEM001
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
loader = DataLoader([], batch_size=8)

for batch in loader:
    out = model(**batch)
    out.loss.backward()
    optimizer.step()
    optimizer.zero_grad()

classifier = transformers_model = None
from transformers import AutoModelForSequenceClassification

clf = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")  # want: MEM001
trainer = Trainer(model=clf, args=TrainingArguments("out"))
trainer.train()

# Only used for inference: silent.
scorer = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
scorer.eval()
