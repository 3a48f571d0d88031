DEVICE = "cuda"
EPOCHS = 3
