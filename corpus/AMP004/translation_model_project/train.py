import time

import options
from data import create_dataset
from models import create_model

if __name__ == "__main__":
    opt = options.parse()
    dataset = create_dataset(opt)
    model = create_model(opt)
    total_iters = 0
    for epoch in range(opt.n_epochs):
        epoch_start = time.time()
        for i, data in enumerate(dataset):
            total_iters += opt.batch_size
            if epoch == 0 and i == 0:
                model.data_dependent_initialize(data)
            model.set_input(data)
            model.optimize_parameters()
            if total_iters % opt.print_freq == 0:
                losses = model.get_current_losses()
                print(epoch, total_iters, losses, time.time() - epoch_start)
