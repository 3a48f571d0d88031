"""Fine-tune a sequence classifier with a plain PyTorch loop (no Trainer).

Indented with tabs on purpose: the fixes must keep the tabs.
"""
import argparse
import random

import numpy as np
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup


def set_seed(seed):
	random.seed(seed)
	np.random.seed(seed)
	torch.manual_seed(seed)


def make_batches(tokenizer, texts, labels, batch_size, shuffle):
	enc = tokenizer(texts, padding="max_length", truncation=True, max_length=64, return_tensors="pt")
	rows = [
		{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": torch.tensor(labels[i])}
		for i in range(len(texts))
	]
	return DataLoader(rows, batch_size=batch_size, shuffle=shuffle)


def evaluate(model, loader, device):
	model.eval()
	all_preds = []
	all_labels = []
	for batch in loader:
		batch = {k: v.to(device) for k, v in batch.items()}
		outputs = model(**batch)
		# keep predictions for the metric below
		all_preds.append(outputs.logits.argmax(dim=-1).cpu().numpy())
		all_labels.append(batch["labels"].cpu().numpy())
	preds = np.concatenate(all_preds)
	labels = np.concatenate(all_labels)
	return float((preds == labels).mean())


def main():
	parser = argparse.ArgumentParser()
	parser.add_argument("--model", default='distilbert-base-uncased')
	parser.add_argument("--epochs", type=int, default=2)
	parser.add_argument("--lr", type=float, default=2e-5)
	parser.add_argument("--batch-size", type=int, default=16)
	args = parser.parse_args()
	set_seed(42)

	device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
	tokenizer = AutoTokenizer.from_pretrained(args.model)
	model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=2)
	model.to(device)

	texts = ["a fine film", "a dull film"] * 64
	labels = [1, 0] * 64
	train_loader = make_batches(tokenizer, texts, labels, args.batch_size, shuffle=True)
	eval_loader = make_batches(tokenizer, texts[:32], labels[:32], args.batch_size, shuffle=False)

	# no weight decay for biases and LayerNorm weights
	no_decay = ["bias", "LayerNorm.weight"]
	groups = [
		{"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
		{"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
	]
	optimizer = torch.optim.AdamW(groups, lr=args.lr)
	total_steps = len(train_loader) * args.epochs
	scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=total_steps // 10, num_training_steps=total_steps)

	for epoch in range(args.epochs):
		model.train()
		total_loss = 0.0
		for step, batch in enumerate(train_loader):
			batch = {k: v.to(device) for k, v in batch.items()}
			outputs = model(**batch)
			loss = outputs.loss
			loss.backward()
			torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
			optimizer.step()
			scheduler.step()
			optimizer.zero_grad()
			total_loss += loss.item()
		avg = total_loss / len(train_loader)
		acc = evaluate(model, eval_loader, device)
		print(f"epoch {epoch}: train loss {avg:.4f}, eval accuracy {acc:.3f}")

	model.save_pretrained("finetuned")  # weights and config


if __name__ == "__main__":
	main()
