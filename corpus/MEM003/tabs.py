import torch as T

def predict(net, loader):
	net.eval()
	for x in loader:  # want: MEM003
		yield_ = net(x.cuda())
		print(yield_)
