# gpuopt-env: torch-floor=1.12
# The project runs a current torch but declares `torch>=1.12.0` (blind
# sample S21F's JoeyNMT, documented on 2.1.2): torch.amp.GradScaler
# arrived in 2.3, so rewriting to it would break versions the project
# still supports. Reported without a fix: the message says to raise the
# floor first.
import torch
from torch.cuda.amp import GradScaler  # want: AMP002

scaler = torch.cuda.amp.GradScaler(enabled=True)  # want: AMP002
other = GradScaler()
