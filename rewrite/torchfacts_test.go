package rewrite

import "testing"

// TestFormattedDeviceStrings: device strings built by formatting name a
// CUDA device by the text before the placeholder, and an ordinal taken
// from a list named for GPUs is a CUDA device; the same shapes naming
// another device, or a list named for something else, are not.
func TestFormattedDeviceStrings(t *testing.T) {
	cases := []struct {
		expr string
		want DeviceKind
	}{
		{`f"cuda:{rank}"`, DeviceCUDA},
		{`"cuda:{}".format(gpu)`, DeviceCUDA},
		{`"cuda:%d" % gpu`, DeviceCUDA},
		{`torch.device("cuda:{}".format(ids[0])) if ids else torch.device("cpu")`, DeviceMaybeCUDA},
		{`gpu_ids[0]`, DeviceCUDA},
		{`opt.gpu_ids[0]`, DeviceCUDA},
		{`f"cpu:{rank}"`, DeviceUnknown},
		{`"{}:0".format(kind)`, DeviceUnknown},
		{`b"cuda:%d" % gpu`, DeviceUnknown},
		{`sizes[0]`, DeviceUnknown},
	}
	for _, c := range cases {
		src := "import torch\nrank = gpu = 0\nids = gpu_ids = sizes = [0]\nx = " + c.expr + "\n"
		f := Parse("t.py", []byte(src))
		m := f.Model()
		asg := f.OfType("assignment")
		value := asg[len(asg)-1].ChildByField("right")
		if got := m.DeviceOf(value); got != c.want {
			t.Errorf("DeviceOf(%s) = %v, want %v", c.expr, got, c.want)
		}
	}
}

// TestBuilderDeviceAndInheritedDevice: a builder that moves what it
// returns under a test of the GPU places it on CUDA when there is one,
// through a builder that returns another's result; self.device read in a
// subclass is what the base class sets.
func TestBuilderDeviceAndInheritedDevice(t *testing.T) {
	src := `import torch


def init_net(net, gpu_ids=()):
    if len(gpu_ids) > 0:
        net.to(gpu_ids[0])
        net = torch.nn.DataParallel(net, gpu_ids)
    return net


def define_G(gpu_ids):
    return init_net(torch.nn.Linear(4, 4), gpu_ids)


def no_move(gpu_ids):
    return torch.nn.Linear(4, 4)


def moved_on_a_flag(net, flag):
    if flag:
        net.to("cuda")
    return net


class Base:
    def __init__(self, gpu_ids):
        self.device = torch.device("cuda:{}".format(gpu_ids[0])) if gpu_ids else torch.device("cpu")


class Model(Base):
    def __init__(self, gpu_ids):
        Base.__init__(self, gpu_ids)
        self.netG = define_G(gpu_ids)
        self.plain = no_move(gpu_ids)
        self.flagged = moved_on_a_flag(torch.nn.Linear(4, 4), True)

    def set_input(self, x):
        self.x = x.to(self.device)
`
	f := Parse("t.py", []byte(src))
	m := f.Model()
	want := map[string]DeviceKind{
		"define_G(gpu_ids)":                            DeviceMaybeCUDA,
		"no_move(gpu_ids)":                             DeviceUnknown,
		"moved_on_a_flag(torch.nn.Linear(4, 4), True)": DeviceUnknown,
	}
	for _, c := range f.OfType("call") {
		if k, ok := want[c.Text()]; ok {
			if got := m.BuilderDevice(c); got != k {
				t.Errorf("BuilderDevice(%s) = %v, want %v", c.Text(), got, k)
			}
			delete(want, c.Text())
		}
		if c.Text() == "x.to(self.device)" {
			if got := m.MoveKind(c); got != DeviceMaybeCUDA {
				t.Errorf("MoveKind(%s) = %v, want DeviceMaybeCUDA (the base class's device)", c.Text(), got)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("calls not found: %v", want)
	}
}

// TestSummarizeRelativeModuleDevice summarises (with no project index, as
// the per-project index does) a module that moves tensors to an attribute
// of a package sibling (`from . import config` then `config.DEVICE`):
// the lookup of that sibling must not dereference the missing index
// (blind sample S37F's Swin_Tiny dataset.py crashed LOAD001 there).
func TestSummarizeRelativeModuleDevice(t *testing.T) {
	src := "import torch\nfrom . import config\n\n\ndef load(x):\n    return x.to(config.DEVICE)\n"
	f := Parse("pkg/dataset.py", []byte(src))
	defs := Summarize(f, "pkg/dataset.py")
	if defs["load"] == nil {
		t.Fatalf("no summary of load: %v", defs)
	}
}
