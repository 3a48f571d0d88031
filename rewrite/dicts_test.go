package rewrite

import (
	"sort"
	"strings"
	"testing"
)

// TestDictEntries reads the keys that reach a call through **name.
func TestDictEntries(t *testing.T) {
	src := `import torch
base = {"batch_size": 32}
if torch.cuda.is_available():
    extra = {"num_workers": 4, "pin_memory": True}
    base.update(extra)
base["shuffle"] = True
f(**base)
choice = {"a": 1, "b": 2} if flag else {"a": 3}
f(**choice)
unknown = make()
f(**unknown)
leaked = {"x": 1}
g(leaked)
f(**leaked)
built = dict(k=1)
built.update(j=2)
f(**built)
`
	f := Parse("t.py", []byte(src))
	m := f.Model()
	read := func(name string) (string, bool) {
		var splat *Node
		for _, id := range f.Identifiers(name) {
			if id.Parent.Type == "dictionary_splat" {
				splat = id
			}
		}
		entries, ok := m.DictEntries(splat, splat.Parent.Parent.Parent)
		var keys []string
		for _, e := range entries {
			k := e.Key
			if e.Maybe {
				k += "?"
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return strings.Join(keys, " "), ok
	}
	for _, c := range []struct {
		name, keys string
		complete   bool
	}{
		{"base", "batch_size num_workers? pin_memory? shuffle", true},
		{"choice", "a b?", true},
		{"unknown", "", false},
		{"leaked", "x", false},
		{"built", "j k", true},
	} {
		keys, ok := read(c.name)
		if keys != c.keys || ok != c.complete {
			t.Errorf("%s: keys %q complete %v, want %q %v", c.name, keys, ok, c.keys, c.complete)
		}
	}
}
