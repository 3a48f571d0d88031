package rewrite

import (
	"strings"
	"testing"
)

// TestReachingBindingParameter checks the read of a parameter that an
// assignment after it, or in another branch, rebinds: straight-line code
// and exclusive if/elif branches read the parameter; inside a loop the
// rebinding reaches the read on the next pass, so nothing is certain.
func TestReachingBindingParameter(t *testing.T) {
	for _, c := range []struct {
		src   string
		param bool
	}{
		{"def f(x):\n    x = g([x, READ])\n", true},
		{"def f(x):\n    if a:\n        x = h(x)\n    elif b:\n        x = g(READ)\n    return x\n", true},
		{"def f(x):\n    x = h(x)\n    use(READ)\n", false},
		{"def f(x):\n    for i in range(3):\n        use(READ)\n        x = g(x)\n", false},
		{"def f(x):\n    while True:\n        use(READ)\n        x = g(x)\n", false},
		{"def f(x):\n    for i in range(3):\n        if i:\n            x = g(1)\n        else:\n            use(READ)\n", false},
	} {
		src := strings.Replace(c.src, "READ", "x", 1)
		at := strings.Index(c.src, "READ")
		f := Parse("t.py", []byte(src))
		id := f.NodeAt(at, at+1)
		b := f.Model().ReachingBinding(id, id)
		if got := b != nil && b.Kind == ParamBinding; got != c.param {
			t.Errorf("%q: reaches the parameter = %v, want %v", c.src, got, c.param)
		}
		f.Release()
	}
}
