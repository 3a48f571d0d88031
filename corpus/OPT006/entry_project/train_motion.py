import torch

from trainers import MotionTrainer
from utils import seed_everything

if __name__ == "__main__":
    seed_everything(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.autograd.set_detect_anomaly(True)  # want: OPT006
    trainer = MotionTrainer(device)
    trainer.train(epochs=300)
