# The datasets are classes of a sibling module: one only indexes rows in
# memory (workers would add start-up and pickling, nothing else: silent),
# the other decodes files (LOAD001).
import torch
import torch.utils.data as data

import data_utils


def main(rows, labels, paths, model):
    pairs = data.DataLoader(data_utils.PairData(rows, labels), batch_size=100, num_workers=0)
    images = data.DataLoader(data_utils.ImageData(paths), batch_size=64, num_workers=0)  # want: LOAD001
    model = model.cuda()
    for epoch in range(3):
        for user, item, label in pairs:
            model(user.cuda(), item.cuda())
        for x in images:
            model(x.cuda())


if __name__ == "__main__":
    main([], [], [], torch.nn.Identity())
