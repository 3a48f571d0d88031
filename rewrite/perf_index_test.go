package rewrite

import "testing"

// identsIn (the per-name index behind Occurrences and Reads) must list
// exactly the identifiers a walk of the region finds, in order, also after
// an incremental reparse.
func TestIdentsInMatchesWalk(t *testing.T) {
	src := "import torch\n\ndef f(a, b=1):\n    x = [a + i for i in range(b)]\n    return torch.cat(x)\n\nclass C:\n    def g(self):\n        for a in self.y:\n            x = f(a, b=2)\n        return x\n"
	f := Parse("t.py", []byte(src))
	edited := []byte(src[:len(src)-1] + " + a\n")
	g := Reparse(f, edited, Edit{Start: len(src) - 1, End: len(src) - 1, New: " + a"})
	for _, file := range []*File{f, g} {
		m := file.Model()
		regions := append([]*Node{file.Root}, file.OfTypes("function_definition", "class_definition", "for_statement", "call")...)
		for _, name := range []string{"a", "b", "x", "f", "i", "torch", "self"} {
			for _, region := range regions {
				var want []*Node
				region.Walk(func(n *Node) bool {
					if n.Type == "identifier" && n.Text() == name {
						want = append(want, n)
					}
					return true
				})
				got := m.identsIn(name, region)
				if len(got) != len(want) {
					t.Fatalf("identsIn(%s, %q) has %d nodes, the walk %d", name, region.Text(), len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("identsIn(%s, %q)[%d] differs from the walk", name, region.Text(), i)
					}
				}
			}
		}
	}
}
