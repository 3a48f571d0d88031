import torch

from data_loader import get_loader
from solver import Solver


def main():
    data_loader = get_loader("kdd.npy", batch_size=1024)
    solver = Solver(data_loader, torch.nn.Linear(118, 1))
    solver.train(200)
    print(solver.test())


if __name__ == "__main__":
    main()
