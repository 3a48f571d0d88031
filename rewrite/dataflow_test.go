package rewrite

import "testing"

func firstLoop(f *File) *Node {
	var out *Node
	f.Root.Walk(func(n *Node) bool {
		if out == nil && IsLoop(n) {
			out = n
		}
		return out == nil
	})
	return out
}

func TestLoopCarried(t *testing.T) {
	cases := []struct {
		src     string
		carried bool
	}{
		{"for i, t in enumerate(ids):\n    tmp = lut[t]\n    out[i] = table[tmp]\n", false},
		{"for i in range(n):\n    out[i] = out[i - 1] + x[i]\n", true},        // prefix sum
		{"for x in xs:\n    acc = acc + x\n", true},                           // recurrence
		{"for x in xs:\n    total += x\n", true},                              // accumulator
		{"for x in xs:\n    y = f(x)\n    z = g(y)\n", false},                 // per-iteration temporaries
		{"for x in xs:\n    if x:\n        y = 1\n    out.append(y)\n", true}, // conditional binding read later
		{"for x in xs:\n    buf.copy_(x)\n    out[0] = buf\n", true},          // in-place write read again
		{"for x in xs:\n    xs.append(x)\n", true},                            // mutates what it iterates
	}
	for _, c := range cases {
		f := Parse("t.py", []byte(c.src))
		if got := f.Model().LoopCarried(firstLoop(f)); got != c.carried {
			t.Errorf("LoopCarried(%q) = %v, want %v", c.src, got, c.carried)
		}
	}
}

func TestLoopVarEscapes(t *testing.T) {
	cases := []struct {
		src     string
		escapes bool
	}{
		{"for i, t in enumerate(ids):\n    out[i] = table[t]\n", false},
		{"for i, t in enumerate(ids):\n    out[i] = table[t]\nprint(i)\n", true},
		{"for i, t in enumerate(ids):\n    tmp = lut[t]\n    out[i] = table[tmp]\nprint(tmp)\n", true},
		{"def f():\n    for i in ids:\n        out[i] = 0\n\ni = 3\n", false}, // another scope's i
	}
	for _, c := range cases {
		f := Parse("t.py", []byte(c.src))
		if got := f.Model().LoopVarEscapes(firstLoop(f)); got != c.escapes {
			t.Errorf("LoopVarEscapes(%q) = %v, want %v", c.src, got, c.escapes)
		}
	}
}

func TestReadsAfterAndFresh(t *testing.T) {
	src := "import torch\npreds = []\nfor x in loader:\n    out = model(x)\n    preds.append(out.cpu())\nres = torch.cat(preds)\n"
	f := Parse("t.py", []byte(src))
	m := f.Model()
	loop := firstLoop(f)
	reads := m.ReadsAfter(m.Module, "preds", loop.End)
	if len(reads) != 1 || reads[0].Parent.Parent.Type != "call" {
		t.Fatalf("ReadsAfter(preds) = %v", reads)
	}
	var out *Node
	f.Root.Walk(func(n *Node) bool {
		if n.Type == "identifier" && n.Text() == "out" && m.IsRead(n) {
			out = n
		}
		return true
	})
	if !m.FreshPerIteration(out, loop) {
		t.Error("out is bound at the top of every iteration")
	}
	if InPlaceMutated(LoopBody(loop), "out") || !InPlaceMutated(LoopBody(loop), "preds") {
		t.Error("InPlaceMutated: preds is appended to, out is not changed")
	}
	if RootName(findCall(f, "out.cpu").ChildByField("function").ChildByField("object")).Text() != "out" {
		t.Error("RootName(out.cpu) is out")
	}
}

func TestIsArrayExpr(t *testing.T) {
	src := "import torch\nimport numpy as np\nfrom torch import nn\na = torch.zeros(3)\nb = np.ones(3)\nc = [1, 2]\nm = nn.Linear(2, 2)\nd = m(a)\ne = (a + 1)[0]\nprint(a, b, c, d, e)\ndef f(x: torch.Tensor, y):\n    return x, y\n"
	f := Parse("t.py", []byte(src))
	m := f.Model()
	want := map[string][2]bool{"a": {true, true}, "b": {true, false}, "c": {false, false}, "d": {true, true}, "e": {true, true}, "x": {true, true}, "y": {false, false}}
	f.Root.Walk(func(n *Node) bool {
		if n.Type == "identifier" && m.IsRead(n) {
			if w, ok := want[n.Text()]; ok {
				if m.IsArrayExpr(n) != w[0] || m.IsTensorExpr(n) != w[1] {
					t.Errorf("%s: IsArrayExpr=%v IsTensorExpr=%v, want %v", n.Text(), m.IsArrayExpr(n), m.IsTensorExpr(n), w)
				}
			}
		}
		return true
	})
}
