import torch
from torch.cuda.amp import autocast as ac  # want: AMP001

# Already the new spelling.
with torch.autocast("cuda"):
    pass
with torch.amp.autocast("cuda", dtype=torch.bfloat16):
    pass


# A local class called autocast is not torch's.
class autocast:
    def __init__(self, enabled=True):
        self.enabled = enabled


with autocast():
    pass

# *args hides the positional layout: reported above at the import, no fix.
args = (True,)
with ac(*args):
    pass
