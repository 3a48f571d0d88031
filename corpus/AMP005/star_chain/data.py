from conf import *

train_iter = [(torch.randn(batch_size, 512), torch.randint(0, 10, (batch_size,))) for _ in range(4)]
