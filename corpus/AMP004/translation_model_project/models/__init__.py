from models.pix2pix_model import Pix2PixModel


def create_model(opt):
    model = Pix2PixModel(opt)
    print("model [%s] was created" % type(model).__name__)
    return model
