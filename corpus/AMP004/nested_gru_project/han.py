# The document model: it builds the word encoder of another module, so
# its layers include that module's GRU.
import torch.nn as nn

from words import WordEncoder


class DocumentNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.words = WordEncoder()
        self.head = nn.Linear(1024, classes)

    def forward(self, sentences):
        return self.head(self.words(sentences))
