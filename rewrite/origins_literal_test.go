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
		if got := useOrigins(c.src); !slices.Equal(got, c.want) {
			t.Errorf("Origins in %q = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestOriginsThroughDictItems follows a read `c[k]` of a dict kept on
// self or bound to a name to what item assignments store under the same
// key; a tensor's element writes are not followed.
func TestOriginsThroughDictItems(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"class P:\n    def load(self):\n        self.loaders = dict()\n        self.loaders['train'] = A()\n        self.loaders['test'] = B()\n    def train(self):\n        use(self.loaders[\"train\"])\n", []string{"A()"}},
		{"class P:\n    def load(self):\n        self.loaders = {}\n        self.loaders['train'] = A()\n        self.loaders['test'] = B()\n    def run(self, phase):\n        use(self.loaders[phase])\n", []string{"A()", "B()"}},
		{"loaders = {}\nloaders[0] = A()\nloaders[1] = B()\nuse(loaders[1])\n", []string{"B()"}},
		{"x = torch.zeros(3)\nx[0] = A()\nuse(x[0])\n", []string{"x[0]"}}, // not a dict
	}
	for _, c := range cases {
		if got := useOrigins(c.src); !slices.Equal(got, c.want) {
			t.Errorf("Origins in %q = %q, want %q", c.src, got, c.want)
		}
	}
}

// useOrigins returns the text of the origins of the argument of the first
// `use(...)` call in src.
func useOrigins(src string) []string {
	f := Parse("t.py", []byte(src))
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
	return got
}
