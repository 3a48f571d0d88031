from net import TinyLM


class ModelFactory:
    def __init__(self, vocab):
        self.vocab = vocab

    def build(self):
        model = TinyLM(self.vocab)
        return model

    def describe(self):
        return "TinyLM(%d)" % self.vocab
