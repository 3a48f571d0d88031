import os
import random

import numpy as np
import torch


def seed_everything(seed):
    os.environ["PYTHONHASHSEED"] = str(seed)
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"  # want: OPT006
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)

