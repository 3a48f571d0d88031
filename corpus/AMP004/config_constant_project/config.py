# Hyper-parameters of a remaining-useful-life regressor (blind sample
# S32J's CMAPSS project keeps them in src/config.py).
HIDDEN_SIZE = 50
WINDOW = 30
