import numpy as np
from PIL import Image

# Silent: pictures for the host's image libraries, drawn on the CPU anyway.
canvas = Image.fromarray(np.ones((2000, 2000, 3), dtype=np.uint8) * 255)
placeholder = np.zeros((1280, 1280, 3))
