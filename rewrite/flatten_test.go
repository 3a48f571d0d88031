package rewrite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

func dump(n *Node) string {
	var sb strings.Builder
	n.Walk(func(m *Node) bool {
		depth := 0
		for p := m.Parent; p != nil; p = p.Parent {
			depth++
		}
		fmt.Fprintf(&sb, "%d %s %q %d-%d named=%v missing=%v\n", depth, m.Type, m.Field, m.Start, m.End, m.Named, m.Missing)
		return true
	})
	return sb.String()
}

// TestFlattenMatchesCursorWalk checks the one-call C flattener against the
// go-tree-sitter cursor walk, node for node, on the corpus and on broken
// code (ERROR and MISSING nodes).
func TestFlattenMatchesCursorWalk(t *testing.T) {
	inputs := map[string][]byte{
		"broken":  []byte("def f(:\n  x = (1,\nclass\n"),
		"missing": []byte("x = foo(1, 2\n"),
		"unicode": []byte("# é😀\ns = 'ü'\n"),
	}
	files, _ := filepath.Glob("../corpus/*/*.py")
	for _, p := range files {
		inputs[p], _ = os.ReadFile(p)
	}
	parser := sitter.NewParser()
	parser.SetLanguage(python.GetLanguage())
	for name, src := range inputs {
		tree, err := parser.ParseCtx(context.Background(), nil, src)
		if err != nil {
			t.Fatal(err)
		}
		viaCursor := &File{Src: NewSource(name, src)}
		viaC := &File{Src: NewSource(name, src)}
		cursorRoot := viaCursor.copyTree(tree.RootNode())
		a, b := dump(cursorRoot), dump(viaC.flatten(tree.RootNode()))
		if a != b {
			t.Errorf("%s: trees differ:\n%s", name, UnifiedDiff(name, []byte(a), []byte(b)))
		}
		// Tree-sitter's errors only: the flattener's file also carries
		// what CPython rejects (checkCPython), which the cursor walk skips.
		if a, b := len(viaCursor.Errors), viaC.treeErrors(); a != b {
			t.Errorf("%s: %d vs %d errors", name, a, b)
		}
		// The by-type index lists the named nodes of each type in source
		// order, as a walk of the cursor's tree finds them.
		want := map[string][]int{}
		cursorRoot.Walk(func(n *Node) bool {
			if n.Named {
				want[n.Type] = append(want[n.Type], n.Start)
			}
			return true
		})
		for typ, starts := range want {
			var got []int
			for _, n := range viaC.OfType(typ) {
				got = append(got, n.Start)
			}
			if !slices.Equal(got, starts) {
				t.Errorf("%s: OfType(%q) starts at %v, want %v", name, typ, got, starts)
			}
		}
	}
}

// copyTree is the reference mirror: a go-tree-sitter cursor walk, one
// call into C per node and field. The product uses flatten.
// Per-symbol facts (type name, named-ness) are cached so each node costs as
// few calls into C as possible.
// treeErrors counts the file's errors that are tree-sitter's (not a
// rejection, which carries its own message).
func (f *File) treeErrors() int {
	n := 0
	for _, e := range f.Errors {
		if _, rejected := f.errorMessages[e]; !rejected {
			n++
		}
	}
	return n
}

func (f *File) copyTree(root *sitter.Node) *Node {
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	type symbolInfo struct {
		typ   string
		named bool
	}
	symbols := map[sitter.Symbol]symbolInfo{}
	checkMissing := root.HasError()
	mk := func(parent *Node) *Node {
		tn := cur.CurrentNode()
		sym := tn.Symbol()
		info, ok := symbols[sym]
		if !ok {
			info = symbolInfo{tn.Type(), tn.IsNamed()}
			symbols[sym] = info
		}
		n := &Node{
			Type:   info.typ,
			Field:  cur.CurrentFieldName(),
			Start:  int(tn.StartByte()),
			End:    int(tn.EndByte()),
			Named:  info.named,
			Parent: parent,
			file:   f,
		}
		if checkMissing {
			n.Missing = tn.IsMissing()
		}
		if n.Type == "ERROR" || n.Missing {
			f.Errors = append(f.Errors, n)
		}
		if parent != nil {
			parent.Children = append(parent.Children, n)
		}
		return n
	}
	top := mk(nil)
	n := top
	for {
		if cur.GoToFirstChild() {
			n = mk(n)
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() {
				return top
			}
			n = n.Parent
		}
		n = mk(n.Parent)
	}
}
