# Hugging Face's no-Trainer scripts: AdamW over two parameter groups of a
# model that Accelerate moves to its device after the optimizer is built.
import torch
from accelerate import Accelerator
from transformers import AutoModelForSequenceClassification


def main(args):
    accelerator = (
        Accelerator(log_with=args.report_to) if args.with_tracking else Accelerator()
    )
    model = AutoModelForSequenceClassification.from_pretrained(args.model_name_or_path)
    no_decay = ["bias", "LayerNorm.weight"]
    groups = [
        {
            "params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
            "weight_decay": args.weight_decay,
        },
        {
            "params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
            "weight_decay": 0.0,
        },
    ]
    optimizer = torch.optim.AdamW(groups, lr=args.learning_rate)  # want: OPT001
    model, optimizer = accelerator.prepare(model, optimizer)
    for batch in args.batches:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


def cpu_only(args):
    # The same groups over a model that nothing moves: silent.
    model = AutoModelForSequenceClassification.from_pretrained(args.model_name_or_path)
    groups = [{"params": [p for n, p in model.named_parameters()], "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=1e-5)
    for batch in args.batches:
        model(**batch).loss.backward()
        optimizer.step()
