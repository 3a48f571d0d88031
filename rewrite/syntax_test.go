package rewrite

import (
	"strings"
	"testing"
)

// TestDeleteArgEdit removes dict entries and keyword arguments with their
// separating comma, keeping the comments of the items that stay.
func TestDeleteArgEdit(t *testing.T) {
	cases := []struct{ src, key, want string }{
		{"d = {'a': 1, 'b': 2}\n", "'b'", "d = {'a': 1}\n"},
		{"d = {'a': 1, 'b': 2}\n", "'a'", "d = {'b': 2}\n"},
		{"d = {'b': 2}\n", "'b'", "d = {}\n"},
		// The last entry on a line of its own: the previous entry's comment
		// stays, and so does its own (gpuopt never deletes a comment).
		{"d = {\n    'a': 1,  # keep me\n    'b': 2,  # about b\n}\n", "'b'", "d = {\n    'a': 1,  # keep me\n    # about b\n}\n"},
		// A middle entry on its own line likewise.
		{"d = {\n    'a': 1,  # about a\n    'b': 2,\n}\n", "'a'", "d = {\n    # about a\n    'b': 2,\n}\n"},
		{"d = {\n    'a': 1,  # keep me\n    'b': 2\n}\n", "'b'", "d = {\n    'a': 1,  # keep me\n}\n"},
		{"f(\n    x=1,  # keep me\n    y=2,\n)\n", "y", "f(\n    x=1,  # keep me\n)\n"},
	}
	for _, c := range cases {
		f := Parse("t.py", []byte(c.src))
		var item *Node
		for _, typ := range []string{"pair", "keyword_argument"} {
			for _, n := range f.OfType(typ) {
				k := n.ChildByField("key")
				if k == nil {
					k = n.ChildByField("name")
				}
				if k != nil && k.Text() == c.key {
					item = n
				}
			}
		}
		if item == nil {
			t.Fatalf("%q: no item %s", c.src, c.key)
		}
		out, err := ApplyEdits([]byte(c.src), []Edit{DeleteArgEdit(item)})
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != c.want {
			t.Errorf("deleting %s from %q:\n got %q\nwant %q", c.key, c.src, out, c.want)
		}
	}
}

// TestUnreachable checks the statements after a return, raise, continue
// or break of their block, and only those.
func TestUnreachable(t *testing.T) {
	src := `def f(xs):
    return
    dead_a = 1


def g(xs):
    for x in xs:
        if x:
            continue
        live_b = 2
        break
        dead_c = 3
    live_d = 4


def h():
    raise ValueError()
    if True:
        dead_e = 5


live_f = 6
if live_f:
    sys.exit(0)
live_g = 7
sys.exit()
dead_h = 8
`
	f := Parse("t.py", []byte(src))
	for name, want := range map[string]bool{"dead_a": true, "live_b": false, "dead_c": true, "live_d": false, "dead_e": true, "live_f": false, "live_g": false, "dead_h": true} {
		i := strings.Index(src, name)
		if got := Unreachable(f.NodeAt(i, i+len(name))); got != want {
			t.Errorf("%s: Unreachable = %v, want %v", name, got, want)
		}
	}
}
