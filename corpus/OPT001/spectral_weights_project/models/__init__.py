from .fno import FNO2d
