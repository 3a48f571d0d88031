# gpuopt-env: torch-floor=1.12
# The project runs a current torch but declares `torch>=1.12.0` (blind
# sample S21F's JoeyNMT, documented on 2.1.2): torch.amp.GradScaler
# arrived in 2.3, so rewriting to it would break versions the project
# still supports, and the old spelling is the one they all run. Not
# reported until the floor rises (blind sample S37Q's ASL judged two such
# findings false).
import torch
from torch.cuda.amp import GradScaler

scaler = torch.cuda.amp.GradScaler(enabled=True)
other = GradScaler()
