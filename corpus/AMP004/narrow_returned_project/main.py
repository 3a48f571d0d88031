import torch
from torch.utils.data import DataLoader

from config import HIDDEN_SIZE, INPUT_SIZE
from model_gru import PriceGRU
from train_model import train_model


def main(train_set):
    device = torch.device("cuda")
    model = PriceGRU(input_size=INPUT_SIZE, hidden_size=HIDDEN_SIZE).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    loader = DataLoader(train_set, batch_size=32, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    model = train_model(model, loader, optimizer, torch.nn.MSELoss(), device, 50)
    torch.save(model.state_dict(), "gru.pt")
