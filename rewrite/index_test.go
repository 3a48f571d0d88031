package rewrite

import (
	"slices"
	"testing"
)

const indexSrc = `import torch
from torch.cuda.amp import autocast as ac
import xgboost as xgb

def step(model, x, device="cuda"):
    with ac():
        y = model(x).to(device)
    y.backward()
    model.zero_grad()
    torch.cuda.synchronize()
    xgb.train({}, x)
    s = "model backward"  # model in a comment
    return y.cpu().numpy()
`

// The identifier and call indexes must answer what a walk of the tree
// answers.
func TestIndexesMatchAWalk(t *testing.T) {
	f := Parse("t.py", []byte(indexSrc))
	byName := map[string][]*Node{}
	methods := map[string][]*Node{}
	callees := map[string][]*Node{}
	f.Root.Walk(func(n *Node) bool {
		switch n.Type {
		case "identifier":
			byName[n.Text()] = append(byName[n.Text()], n)
		case "call":
			if fn := n.ChildByField("function"); fn.Type == "attribute" {
				a := fn.ChildByField("attribute").Text()
				methods[a] = append(methods[a], n)
			}
			if q := f.Model().CalleeName(n); q != "" {
				callees[q] = append(callees[q], n)
			}
		}
		return true
	})
	for name, want := range byName {
		if got := f.Identifiers(name); !slices.Equal(got, want) || !f.Spells(name) {
			t.Errorf("Identifiers(%q) = %d nodes, want %d", name, len(got), len(want))
		}
	}
	names := 0
	f.SpellsMatching(func(string) bool { names++; return false })
	if names != len(byName) {
		t.Errorf("SpellsMatching asked about %d names, want %d", names, len(byName))
	}
	for _, absent := range []string{"backwardx", "comment", "cuda_", "s ", ""} {
		if f.Spells(absent) || f.Identifiers(absent) != nil || f.SpellsAny([]string{"nope", absent}) {
			t.Errorf("%q is not an identifier of the file", absent)
		}
	}
	if !f.SpellsAny([]string{"nope", "autocast"}) || !f.SpellsAnyOf(NewSpellings([]string{"nope", "autocast"})) {
		t.Error("SpellsAny misses autocast (spelled in the import)")
	}
	for name := range byName {
		if !f.SpellsAnyOf(NewSpellings([]string{"nope", name})) {
			t.Errorf("SpellsAnyOf misses %q", name)
		}
	}
	if f.SpellsAnyOf(NewSpellings([]string{"nope", "backwardx", "comment"})) {
		t.Error("SpellsAnyOf finds names the file does not spell")
	}
	for name, want := range methods {
		if got := f.MethodCalls(name); !slices.Equal(got, want) {
			t.Errorf("MethodCalls(%q) = %d calls, want %d", name, len(got), len(want))
		}
	}
	for q, want := range callees {
		if got := f.Model().CallsTo(q); !slices.Equal(got, want) {
			t.Errorf("CallsTo(%q) = %d calls, want %d", q, len(got), len(want))
		}
	}
	if len(callees["torch.cuda.amp.autocast"]) != 1 || len(callees["xgboost.train"]) != 1 {
		t.Errorf("aliases not resolved: %v", callees)
	}
	for i := range f.nodes {
		n := &f.nodes[i]
		for _, typ := range []string{"identifier", "call", "string"} {
			var want []*Node
			n.Walk(func(c *Node) bool {
				if c.Named && c.Type == typ {
					want = append(want, c)
				}
				return true
			})
			if got := f.OfTypeIn(n, typ); !slices.Equal(got, want) {
				t.Errorf("OfTypeIn(%s at %d, %q) = %d nodes, want %d", n.Type, n.Start, typ, len(got), len(want))
			}
		}
	}
	both := f.Model().CallsTo("xgboost.train", "torch.cuda.synchronize")
	if len(both) != 2 || both[0].Start > both[1].Start {
		t.Errorf("CallsTo of two names: %d calls, not in source order", len(both))
	}
}

// CallsTo finds a callee in parentheses, as CalleeName resolves it.
func TestCallsToParenthesized(t *testing.T) {
	f := Parse("t.py", []byte("import torch\nfrom torch.cuda import synchronize as sync\n(torch.cuda.synchronize)()\n(sync)()\nsync()\n"))
	if got := f.Model().CallsTo("torch.cuda.synchronize"); len(got) != 3 {
		t.Errorf("CallsTo found %d calls, want 3", len(got))
	}
}

// A released file's slab serves the next parse, which must not see the
// released file's nodes.
func TestReleaseRecyclesSlab(t *testing.T) {
	big := Parse("a.py", []byte(indexSrc+indexSrc))
	// Fill the model's and the indexes' arrays, to be recycled.
	big.Model().CallsTo("xgboost.train")
	big.Identifiers("model")
	for _, l := range big.OfType("with_statement") {
		big.Model().LoopBodyNodes(l)
	}
	ref := Parse("b.py", []byte(indexSrc))
	want := dump(ref.Root)
	big.Release()
	if big.Root != nil || big.nodes != nil {
		t.Fatal("a released file keeps its tree")
	}
	f := Parse("b.py", []byte(indexSrc))
	if got := dump(f.Root); got != want {
		t.Fatalf("a parse into a recycled slab differs:\n%s", UnifiedDiff("b.py", []byte(want), []byte(got)))
	}
	if len(f.nodes) != int(f.sizes[0]) {
		t.Fatalf("root subtree size %d, want %d nodes", f.sizes[0], len(f.nodes))
	}
	// The model and indexes built in recycled arrays answer what fresh ones
	// do.
	for i, id := range f.OfType("identifier") {
		refID := ref.OfType("identifier")[i]
		got, want := f.Model().Bindings(id), ref.Model().Bindings(refID)
		if len(got) != len(want) || len(f.Identifiers(id.Text())) != len(ref.Identifiers(refID.Text())) {
			t.Errorf("identifier %q at %d: %d bindings, %d spellings in a recycled model; %d, %d in a fresh one",
				id.Text(), id.Start, len(got), len(f.Identifiers(id.Text())), len(want), len(ref.Identifiers(refID.Text())))
		}
		for j := range got {
			if got[j].Kind != want[j].Kind || got[j].Ident.Start != want[j].Ident.Start || len(got[j].Uses) != len(want[j].Uses) {
				t.Errorf("identifier %q at %d: binding %d differs in a recycled model", id.Text(), id.Start, j)
			}
		}
	}
	for _, call := range f.OfType("call") {
		i := slices.Index(f.OfType("call"), call)
		if got, want := f.Model().CalleeName(call), ref.Model().CalleeName(ref.OfType("call")[i]); got != want {
			t.Errorf("call %d resolves to %q in a recycled model, %q in a fresh one", i, got, want)
		}
	}
}

// LoopBodyNodes lists what a walk of the loop's body visits, named nodes only,
// without what nested functions, classes and lambdas hold.
func TestLoopBodyMatchesAWalk(t *testing.T) {
	src := `for x in xs:
    y = f(x)
    def g(a):
        return a.cuda()
    k = lambda b: b.cpu()
    class C:
        z = 1
    while y:
        y -= 1
else:
    done()
`
	f := Parse("t.py", []byte(src))
	for _, loop := range f.OfTypes("for_statement", "while_statement") {
		var want []*Node
		for _, c := range loop.Children {
			if c.Field != "body" {
				continue
			}
			c.Walk(func(n *Node) bool {
				if n.Is("function_definition", "class_definition", "lambda") {
					return false
				}
				if n.Named {
					want = append(want, n)
				}
				return true
			})
		}
		got := f.Model().LoopBodyNodes(loop)
		if !slices.Equal(got, want) {
			t.Errorf("LoopBodyNodes(%s at %d) = %d nodes, want %d", loop.Type, loop.Start, len(got), len(want))
		}
		for _, n := range got {
			if n.Type == "identifier" && (n.Text() == "a" || n.Text() == "b" || n.Text() == "z" || n.Text() == "done") {
				t.Errorf("LoopBodyNodes(%s) holds %q, which is not run by the loop's body", loop.Type, n.Text())
			}
		}
		if again := f.Model().LoopBodyNodes(loop); &again[0] != &got[0] {
			t.Error("LoopBodyNodes is not cached")
		}
	}
}
