package rewrite

import (
	"strings"
	"testing"
)

func findCall(f *File, text string) *Node {
	var out *Node
	f.Root.Walk(func(n *Node) bool {
		if out == nil && n.Type == "call" && strings.HasPrefix(n.Text(), text) {
			out = n
		}
		return out == nil
	})
	return out
}

// checkCallees checks the qualified name of the call starting with each
// case's text.
func checkCallees(t *testing.T, f *File, m *Model, cases map[string]string) {
	t.Helper()
	for text, want := range cases {
		call := findCall(f, text)
		if call == nil {
			t.Fatalf("no call %q", text)
		}
		if got := m.CalleeName(call); got != want {
			t.Errorf("CalleeName(%s) = %q, want %q", text, got, want)
		}
	}
}

func TestQualifiedNames(t *testing.T) {
	src := `import xgboost as xgb
import torch.nn as nn
from xgboost import DMatrix as DM
import numpy
from .local import helper

class DMatrix:
    pass

def f(xgb):
    return xgb.DMatrix(1)

a = xgb.DMatrix(1)
b = DM(2)
c = DMatrix(3)
d = numpy.zeros(4)
e = nn.Linear(5)
g = print(6)
h = helper(7)
`
	f := Parse("t.py", []byte(src))
	if f.HasSyntaxErrors() {
		t.Fatal(f.SyntaxError())
	}
	m := f.Model()
	cases := map[string]string{
		"xgb.DMatrix(1)": "", // inside f, xgb is a parameter
		"DM(2)":          "xgboost.DMatrix",
		"DMatrix(3)":     "",
		"numpy.zeros(4)": "numpy.zeros",
		"nn.Linear(5)":   "torch.nn.Linear",
		"print(6)":       "print",
		"helper(7)":      "",
	}
	checkCallees(t, f, m, cases)
	// The module-level xgb.DMatrix(1) (the second one) resolves.
	var calls []*Node
	f.Root.Walk(func(n *Node) bool {
		if n.Type == "call" && n.Text() == "xgb.DMatrix(1)" {
			calls = append(calls, n)
		}
		return true
	})
	if len(calls) != 2 || m.CalleeName(calls[1]) != "xgboost.DMatrix" {
		t.Errorf("module-level xgb.DMatrix not resolved")
	}
}

// A name imported twice at the top level (`import tqdm`, then `from tqdm
// import tqdm`) is, inside a function, the last import; an import under
// a try, or a read at the top level, keeps the name unresolved.
func TestRepeatedTopLevelImport(t *testing.T) {
	src := `import tqdm
from tqdm import tqdm
try:
    import ujson as json
except ImportError:
    import json

def run(loader):
    for x in tqdm(loader):
        json.dumps(x)

top = tqdm(range(3))
`
	f := Parse("t.py", []byte(src))
	m := f.Model()
	cases := map[string]string{
		"tqdm(loader)":   "tqdm.tqdm",
		"json.dumps(x)":  "",
		"tqdm(range(3))": "",
	}
	checkCallees(t, f, m, cases)
}

func TestStarImportMakesNamesUnknown(t *testing.T) {
	f := Parse("t.py", []byte("from torch import *\nx = zeros(3)\n"))
	if got := f.Model().CalleeName(findCall(f, "zeros")); got != "" {
		t.Errorf("got %q, want unknown", got)
	}
}

func TestLoopsAndUses(t *testing.T) {
	src := `import torch
from torch.utils.data import DataLoader
model = torch.nn.Linear(2, 2).cuda()
opt = torch.optim.AdamW(model.parameters())
loader = DataLoader(ds, batch_size=4)
losses = []
for x, y in loader:
    loss = model(x).sum()
    loss.backward()
    opt.step()
    losses.append(loss.item())
for i in range(3):
    print(i)
print(losses)
`
	f := Parse("t.py", []byte(src))
	m := f.Model()
	var loops []*Node
	f.Root.Walk(func(n *Node) bool {
		if IsLoop(n) {
			loops = append(loops, n)
		}
		return true
	})
	li := m.Loop(loops[0])
	if !li.Backward || !li.OptimizerStep || !li.IteratesLoader || !li.ModelForward {
		t.Errorf("training loop: %+v", li)
	}
	if m.Loop(loops[1]).Hot() {
		t.Errorf("range loop is not hot")
	}
	b := m.Module.Bindings["losses"]
	if len(b) != 1 || len(b[0].Uses) != 2 {
		t.Fatalf("losses uses: %+v", b)
	}
	app := findCall(f, "losses.append")
	if m.HotLoop(app) != loops[0] {
		t.Errorf("append not in hot loop")
	}
}

// Whitespace Python allows inside a dotted import name (a form feed, a
// line continuation) is not part of the qualified name.
func TestDottedImportWithInnerWhitespace(t *testing.T) {
	for _, src := range []string{
		"import torch.\fcuda as tc\ntc.synchronize()\n",
		"import torch. cuda as tc\ntc.synchronize()\n",
		"import torch.cuda as tc\ntc.synchronize()\n",
	} {
		f := Parse("t.py", []byte(src))
		calls := f.OfType("call")
		if len(calls) != 1 || f.Model().CalleeName(calls[0]) != "torch.cuda.synchronize" {
			q := ""
			if len(calls) == 1 {
				q = f.Model().CalleeName(calls[0])
			}
			t.Errorf("%q: callee %q, want torch.cuda.synchronize", src, q)
		}
	}
}
