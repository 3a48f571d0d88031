package rewrite

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// mirrorDump describes everything of a file's mirror that rules can see:
// the tree (types, fields, offsets, flags, depth), the errors and the
// by-type index, and it checks that every node belongs to f.
func mirrorDump(t *testing.T, f *File) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(dump(f.Root))
	f.Root.Walk(func(n *Node) bool {
		if n.file != f {
			t.Fatalf("node %s %d-%d belongs to another file", n.Type, n.Start, n.End)
		}
		for _, c := range n.Children {
			if c.Parent != n {
				t.Fatalf("child %s %d-%d of %s has another parent", c.Type, c.Start, c.End, n.Type)
			}
		}
		return true
	})
	for _, e := range f.Errors {
		fmt.Fprintf(&sb, "error %s %d-%d\n", e.Type, e.Start, e.End)
	}
	var types []string
	for tid, l := range f.byType {
		if len(l) > 0 {
			types = append(types, pythonSymbols.types[tid])
		}
	}
	sort.Strings(types)
	for _, typ := range types {
		fmt.Fprintf(&sb, "%s:", typ)
		for _, n := range f.OfType(typ) {
			fmt.Fprintf(&sb, " %d-%d", n.Start, n.End)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// editFragments are what random edits insert: text that opens and closes
// strings, brackets and blocks, so that edits change structure far away.
var editFragments = []string{
	"", "x", "1", " ", "\n", "\n    ", "(", ")", "[", "]", "{", "}", ":", ",", "'", `"`, `"""`,
	"#", "\\", "def f():\n", "if x:\n    pass\n", "\tfoo(a, b=2)", "é", "import torch\n", "lambda: 0",
}

// editsPerFile is how many chained random edits TestReparseMatchesParse
// makes per input.
var editsPerFile = 20

// TestReparseMatchesParse checks the incremental mirror against a full
// walk of the same tree after random edits, chained so that mirrors copied
// from mirrors are checked too, and, on valid code, against a fresh parse.
// Every replaced file is released, so mirrors are built in recycled slabs.
func TestReparseMatchesParse(t *testing.T) {
	inputs := map[string][]byte{
		"broken": []byte("def f(:\n  x = (1,\nclass\n"),
		"small":  []byte("import torch\nx = torch.zeros(3)\n"),
	}
	files, _ := filepath.Glob("../corpus/*/*.py")
	for _, p := range files {
		inputs[p], _ = os.ReadFile(p)
	}
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	edits := 0
	for _, name := range names {
		if os.Getenv("ONLY") != "" && name != os.Getenv("ONLY") {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(name))
		rng := rand.New(rand.NewSource(int64(h.Sum64())))
		f := Parse(name, inputs[name])
		for i := 0; i < editsPerFile; i++ {
			src := f.Src.Bytes
			start := rng.Intn(len(src) + 1)
			end := min(len(src), start+rng.Intn(4))
			if rng.Intn(2) == 0 {
				end = start // pure insertion
			}
			e := Edit{Start: start, End: end, New: editFragments[rng.Intn(len(editFragments))]}
			b := append(append(append([]byte(nil), src[:start]...), e.New...), src[end:]...)
			got := Reparse(f, b, e)
			// The reference is a full walk of the same incremental tree:
			// after error recovery, tree-sitter's incremental tree may
			// differ from a fresh parse's, but the mirror must not.
			full := &File{Src: got.Src}
			full.Root = full.mirror(got.tree.RootNode(), nil)
			if g, w := mirrorDump(t, got), mirrorDump(t, full); g != w {
				t.Fatalf("%s: after edit %+v the incremental mirror differs:\n%s", name, e, UnifiedDiff(name, []byte(w), []byte(g)))
			}
			if !got.HasSyntaxErrors() && dump(got.Root) != dump(Parse(name, b).Root) {
				t.Errorf("%s: after edit %+v tree-sitter's incremental tree differs from a fresh parse of valid code", name, e)
			}
			// As the language server does: the old version and the
			// reference are released, and later mirrors reuse their slabs.
			f.Release()
			full.Release()
			f = got
			edits++
		}
	}
	t.Logf("%d edits checked", edits)
}

// TestReparseReusesMirror checks that a small edit copies the untouched
// part of the mirror rather than walking it in C: the walk's flat buffer
// stays far smaller than the tree.
func TestReparseReusesMirror(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("import torch\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&sb, "\ndef f%d(x):\n    return torch.relu(x) * %d\n", i, i)
	}
	src := []byte(sb.String())
	f := Parse("t.py", src)
	at := strings.Index(sb.String(), "* 100") + 2
	b := append([]byte(nil), src...)
	b[at] = '7'
	r := &reuse{old: f, editEnd: at + 1, delta: 0, dirty: []uint32{uint32(at), uint32(at + 1)}}
	buf, _ := walk(rootOf(f.tree.RootNode()), r)
	defer flatPool.Put(buf)
	if n, total := len(*buf), len(f.nodes); n*20 > total {
		t.Errorf("incremental walk wrote %d of %d nodes", n, total)
	}
	g := Reparse(f, b, Edit{Start: at, End: at + 1, New: "7"})
	if g.NodeAt(at, at+1).Text() != "700" {
		t.Errorf("edited number not re-mirrored: %q", g.NodeAt(at, at+1).Text())
	}
}
