package rewrite

import "testing"

// OfTypeIn must list exactly what a walk of the subtree finds, in order.
func TestOfTypeInMatchesWalk(t *testing.T) {
	src := "import torch\n\ndef f(a, b=1):\n    x = [a + i for i in range(b)]\n    return torch.cat(x)\n\nclass C:\n    def g(self):\n        return f(self.y, b=2)\n"
	f := Parse("t.py", []byte(src))
	for _, typ := range []string{"identifier", "call", "attribute", "string"} {
		for _, region := range append([]*Node{f.Root}, f.OfTypes("function_definition", "class_definition", "call")...) {
			var want []*Node
			region.Walk(func(n *Node) bool {
				if n.Named && n.Type == typ {
					want = append(want, n)
				}
				return true
			})
			got := f.OfTypeIn(typ, region)
			if len(got) != len(want) {
				t.Fatalf("OfTypeIn(%s, %s) has %d nodes, the walk %d", typ, region.Text(), len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("OfTypeIn(%s, %s)[%d] = %q, want %q", typ, region.Text(), i, got[i].Text(), want[i].Text())
				}
			}
		}
	}
}
