# The MetricLogger of torchvision's reference scripts, copied by DETR, TransVG
# and many detection repositories: log_every yields what it iterates.
class MetricLogger:
    def __init__(self, delimiter="  "):
        self.delimiter = delimiter

    def log_every(self, iterable, print_freq, header=None):
        for i, obj in enumerate(iterable):
            yield obj
            if i % print_freq == 0:
                print(header, i)
