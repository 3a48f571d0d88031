package rewrite

import "testing"

func TestNameFree(t *testing.T) {
	src := `import torch

def f(device):
    return dev_count + 1

class C:
    kind = 1

x = args.device
torch.zeros(1, dtype=torch.float32)
`
	m := Parse("t.py", []byte(src)).Model()
	for name, want := range map[string]bool{
		"device":    false, // a parameter
		"dev_count": false, // read, though bound nowhere
		"kind":      false, // a class attribute binding
		"torch":     false,
		"dtype":     true, // only a keyword name
		"float32":   true, // only an attribute name
		"gpu":       true,
	} {
		if got := m.NameFree(name); got != want {
			t.Errorf("NameFree(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSameMeaningAt(t *testing.T) {
	src := `import torch
device = torch.device("cuda")
model = torch.nn.Linear(2, 2).to(device)

def train(device):
    for x in range(3):
        pass

for x in range(3):
    pass
`
	f := Parse("t.py", []byte(src))
	m := f.Model()
	arg := findCall(f, "torch.nn.Linear(2, 2).to(").ChildByField("arguments").NamedChildren()[0]
	var loops []*Node
	f.Root.Walk(func(n *Node) bool {
		if n.Type == "for_statement" {
			loops = append(loops, n)
		}
		return true
	})
	if m.SameMeaningAt(arg, loops[0]) {
		t.Errorf("device inside train() is its parameter, not the module's device")
	}
	if !m.SameMeaningAt(arg, loops[1]) {
		t.Errorf("device at module level is the module's device")
	}
	if bs := m.BindingsAt(loops[0], "device"); len(bs) != 1 || bs[0].Kind != ParamBinding {
		t.Errorf("BindingsAt in train() = %+v, want the parameter", bs)
	}
}
