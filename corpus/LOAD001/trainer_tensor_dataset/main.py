from data_loader import load_examples
from model import build_model
from trainer import Trainer

if __name__ == "__main__":
    train_dataset = load_examples("cached_train.pt")
    trainer = Trainer(build_model(), train_dataset)
    trainer.train()
