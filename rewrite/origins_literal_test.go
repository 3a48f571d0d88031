package rewrite

import (
	"slices"
	"testing"
)

// TestOriginsThroughLiteralLoops follows a for loop's target over a list
// or tuple literal to the literal's elements (or the matching item of
// each element tuple, also unpacked in the body).
func TestOriginsThroughLiteralLoops(t *testing.T) {
	cases := []struct {
		src  string
		want []string // the origins' text, in order
	}{
		{"a = A()\nb = B()\nfor loader in [a, b]:\n    use(loader)\n", []string{"A()", "B()"}},
		{"a = A()\nb = B()\nfor name, loader in [(\"train\", a), (\"valid\", b)]:\n    use(loader)\n", []string{"A()", "B()"}},
		{"a = A()\nb = B()\nfor pair in [(\"train\", a), (\"valid\", b)]:\n    name, loader = pair\n    use(loader)\n", []string{"A()", "B()"}},
		{"for loader in loaders:\n    use(loader)\n", []string{"loader"}}, // not a literal: the target itself
	}
	for _, c := range cases {
		f := Parse("t.py", []byte(c.src))
		m := f.Model()
		var use *Node
		f.Root.Walk(func(n *Node) bool {
			if n.Type == "call" && n.ChildByField("function").Text() == "use" {
				use = n.ChildByField("arguments").NamedChildren()[0]
			}
			return use == nil
		})
		var got []string
		for _, o := range m.Origins(use) {
			if o.Expr != nil {
				got = append(got, o.Expr.Text())
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Origins in %q = %q, want %q", c.src, got, c.want)
		}
	}
}
