package rewrite

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// Node is one node of the syntax tree, copied out of tree-sitter into plain Go
// values so that rules walk it without crossing into C.
type Node struct {
	Type     string // tree-sitter node type: "call", "identifier", "(" ...
	Field    string // the field name this node fills in its parent, if any
	Start    int    // byte offset of the first byte
	End      int    // byte offset one past the last byte
	Named    bool   // false for punctuation and keywords
	Missing  bool   // inserted by error recovery; has no text
	tid      uint16 // Type's index in pythonSymbols.types
	idx      int32  // the node's index in its file's slab (pre-order)
	Parent   *Node
	Children []*Node
	file     *File
}

// Text returns the node's source text. It does not allocate.
// A nil node (a field error recovery left empty) has no text.
func (n *Node) Text() string {
	if n == nil {
		return ""
	}
	return n.file.Src.Text(n.Start, n.End)
}

// File returns the file the node belongs to.
func (n *Node) File() *File { return n.file }

// ChildByField returns the first child filling field name, or nil.
// A nil node has no children.
func (n *Node) ChildByField(name string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == name {
			return c
		}
	}
	return nil
}

// NamedChildren returns the named children (no punctuation or keywords, no
// comments).
func (n *Node) NamedChildren() []*Node {
	count := 0
	for _, c := range n.Children {
		if c.isNamedChild() {
			count++
		}
	}
	if count == 0 {
		return nil
	}
	out := make([]*Node, 0, count)
	for _, c := range n.Children {
		if c.isNamedChild() {
			out = append(out, c)
		}
	}
	return out
}

// isNamedChild reports whether NamedChildren lists n: named and not a
// comment. Hot helpers loop over Children with it instead of allocating
// the NamedChildren slice.
func (n *Node) isNamedChild() bool { return n.Named && n.Type != "comment" }

// Is reports whether the node's type is one of types.
func (n *Node) Is(types ...string) bool {
	if n == nil {
		return false
	}
	for _, t := range types {
		if n.Type == t {
			return true
		}
	}
	return false
}

// Contains reports whether m lies inside n (or is n).
func (n *Node) Contains(m *Node) bool {
	for ; m != nil; m = m.Parent {
		if m == n {
			return true
		}
	}
	return false
}

// Walk visits n and its descendants depth-first in source order. When visit
// returns false the node's children are skipped.
func (n *Node) Walk(visit func(*Node) bool) {
	if sub, sizes := n.subtree(); sub != nil {
		// The subtree lies in pre-order in the file's slab: a loop, and a
		// skipped node's subtree is a jump over its size.
		for i := 0; i < len(sub); {
			if visit(&sub[i]) {
				i++
			} else {
				i += int(sizes[i])
			}
		}
		return
	}
	if !visit(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(visit)
	}
}

// inSlab reports whether n is one of f's slab nodes (every node of a
// parsed file is; hand-built ones are not).
func (f *File) inSlab(n *Node) bool {
	return n.file == f && n.idx >= 0 && int(n.idx) < len(f.nodes) && &f.nodes[n.idx] == n
}

// subtree returns n and its descendants in pre-order with their subtree
// sizes, as slices of the file's slab, or nil when n is not in one.
func (n *Node) subtree() ([]Node, []int32) {
	f := n.file
	if f == nil || int(n.idx) >= len(f.nodes) || &f.nodes[n.idx] != n {
		return nil, nil
	}
	end := int(n.idx) + int(f.sizes[n.idx])
	return f.nodes[n.idx:end], f.sizes[n.idx:end]
}

// Ancestor returns the nearest proper ancestor whose type is one of types.
func (n *Node) Ancestor(types ...string) *Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Is(types...) {
			return p
		}
	}
	return nil
}

// File is a parsed Python file: its source, its syntax tree and, built on
// first use, its semantic model.
type File struct {
	Src  *Source
	Root *Node
	// Errors are the ERROR and MISSING nodes of the tree and the constructs
	// CPython rejects (see cpython.go), in source order.
	Errors []*Node
	// errorMessages describe the Errors that are rejected constructs.
	errorMessages map[*Node]string
	tooDeep       bool // nested past MaxNesting: not analysed
	python2       bool // holds Python 2 only syntax (checkLegacySyntax)
	tree          *sitter.Tree
	model         *Model
	byType        [][]*Node       // per type id, the named nodes of that type in source order
	idents        identifierIndex // built on first use
	// nodes is the mirror: every node in pre-order (source order); sizes
	// holds each node's subtree size, so node i's subtree is
	// nodes[i:i+sizes[i]].
	nodes []Node
	sizes []int32
	keys  []uint64 // per node, its tree-sitter subtree (see gts_key)
	slab  *slab    // the memory of nodes, their children, keys and sizes
}

// Parse parses b as Python. It never fails on bad syntax: the tree then
// carries ERROR nodes, listed in File.Errors.
func Parse(path string, b []byte) *File {
	return parseWith(path, b, nil, nil)
}

// Reparse parses b reusing old's tree-sitter tree after recording the edit
// that turned old's bytes into b (incremental parsing for editors). The Go
// mirror of the subtrees the edit left alone is copied from old rather
// than walked again.
func Reparse(old *File, b []byte, e Edit) *File {
	if old == nil || old.tree == nil {
		return Parse("", b)
	}
	oldSrc := old.Src
	newEnd := e.Start + len(e.New)
	start := point(oldSrc, e.Start)
	tree := old.tree.Copy()
	tree.Edit(sitter.EditInput{
		StartIndex:  uint32(e.Start),
		OldEndIndex: uint32(e.End),
		NewEndIndex: uint32(newEnd),
		StartPoint:  start,
		OldEndPoint: point(oldSrc, e.End),
		NewEndPoint: pointAfter(start, e.New),
	})
	r := &reuse{old: old, editEnd: newEnd, delta: newEnd - e.End, dirty: []uint32{uint32(e.Start), uint32(newEnd)}}
	return parseWith(oldSrc.Path, b, tree, r)
}

func point(s *Source, off int) sitter.Point {
	line := s.LineOf(off)
	return sitter.Point{Row: uint32(line), Column: uint32(off - s.LineStart(line))}
}

// pointAfter returns the point where text inserted at p ends.
func pointAfter(p sitter.Point, text string) sitter.Point {
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		return sitter.Point{Row: p.Row + uint32(strings.Count(text, "\n")), Column: uint32(len(text) - i - 1)}
	}
	return sitter.Point{Row: p.Row, Column: p.Column + uint32(len(text))}
}

// parseWith parses b, incrementally when old (an edited tree) is given;
// r, when given, lets the mirror reuse the old file's unchanged subtrees.
func parseWith(path string, b []byte, old *sitter.Tree, r *reuse) *File {
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(python.GetLanguage())
	tree, err := parser.ParseCtx(context.Background(), old, b)
	if old != nil {
		// Done with the edited copy. Closing it here also keeps it alive
		// through the parse: ParseCtx hands C its pointer and drops the Go
		// value, whose finalizer could otherwise free the tree mid-parse.
		old.Close()
	}
	f := &File{Src: NewSource(path, b)}
	if err != nil || tree == nil {
		// tree-sitter only fails on cancellation or a missing language;
		// model the file as one error node so nothing gets rewritten.
		pythonSymbols.load()
		f.Root = &Node{Type: "ERROR", End: len(b), file: f, tid: pythonSymbols.errorID}
		f.Errors = []*Node{f.Root}
		return f
	}
	f.tree = tree
	root := tree.RootNode()
	f.Root = f.mirror(root, r)
	return f
}

// OfType returns the named nodes of the given type in source order (an
// index built while parsing: rules use it instead of walking the tree).
func (f *File) OfType(typ string) []*Node {
	if tid, ok := pythonSymbols.typeIDs[typ]; ok && int(tid) < len(f.byType) {
		return f.byType[tid]
	}
	return nil
}

// OfTypeIn returns the named nodes of type typ inside n (n included), in
// source order: a window of OfType found by binary search, so asking costs
// the nodes found rather than a walk of n. The slice is shared: callers
// must not modify it.
func (f *File) OfTypeIn(n *Node, typ string) []*Node {
	if sub, _ := n.subtree(); sub == nil || n.file != f {
		var out []*Node // a node outside the slab: walk it
		n.Walk(func(c *Node) bool {
			if c.Named && c.Type == typ {
				out = append(out, c)
			}
			return true
		})
		return out
	}
	all := f.OfType(typ)
	end := n.idx + f.sizes[n.idx]
	from, _ := slices.BinarySearchFunc(all, n.idx, func(c *Node, i int32) int { return cmp.Compare(c.idx, i) })
	to, _ := slices.BinarySearchFunc(all[from:], end, func(c *Node, i int32) int { return cmp.Compare(c.idx, i) })
	return all[from : from+to : from+to]
}

// OfTypes returns the named nodes of any of the given types in source
// order (pre-order: an outer node before the nodes inside it).
func (f *File) OfTypes(types ...string) []*Node {
	var lists [][]*Node
	n := 0
	for _, t := range types {
		if l := f.OfType(t); len(l) > 0 {
			lists = append(lists, l)
			n += len(l)
		}
	}
	if len(lists) == 1 {
		return lists[0]
	}
	// Each list is in pre-order already: merge them, no sort.
	out := make([]*Node, 0, n)
	next := make([]int, len(lists))
	for len(out) < n {
		best := -1
		for i, l := range lists {
			if next[i] < len(l) && (best < 0 || before(l[next[i]], lists[best][next[best]])) {
				best = i
			}
		}
		out = append(out, lists[best][next[best]])
		next[best]++
	}
	return out
}

// before reports whether a comes before b in pre-order.
func before(a, b *Node) bool {
	if a.file == b.file && len(a.file.nodes) > 0 {
		return a.idx < b.idx
	}
	return a.Start < b.Start || a.Start == b.Start && a != b && a.Contains(b)
}

// HasSyntaxErrors reports whether the parse needed error recovery.
func (f *File) HasSyntaxErrors() bool { return len(f.Errors) > 0 }

// SyntaxError describes the first syntax error, for messages.
func (f *File) SyntaxError() string {
	if len(f.Errors) == 0 {
		return ""
	}
	e := f.Errors[0]
	line, col := f.Src.Position(errorSite(e))
	what := "invalid syntax"
	if msg, ok := f.errorMessages[e]; ok {
		what = msg
	} else if e.Missing {
		what = "missing " + strings.TrimSpace(e.Type)
	}
	return fmt.Sprintf("syntax error at %d:%d: %s", line+1, col+1, what)
}

// errorSite is where a syntax error is, for messages: an ERROR node that
// tree-sitter's recovery grew over the well-formed statements before the
// fault (from the file's first line) points at the first error nested in
// it, or else at its first child that is not a complete statement (blind
// sample S29G's U-Net module, reported at 1:1 for a fault on line 7).
func errorSite(e *Node) int {
	for depth := 0; depth < 64 && e.Type == "ERROR"; depth++ {
		var next *Node
		for _, c := range e.Children {
			if c.Type == "ERROR" || c.Missing {
				next = c
				break
			}
		}
		if next == nil {
			for _, c := range e.Children {
				if !completeStatement(c) {
					return c.Start
				}
			}
			return e.Start
		}
		e = next
	}
	return e.Start
}

// completeStatement reports a node recovery kept whole before an error:
// a statement, a definition or a comment.
func completeStatement(n *Node) bool {
	return n.Named && (strings.HasSuffix(n.Type, "_statement") || strings.HasSuffix(n.Type, "_definition") || n.Type == "comment")
}

// InError reports whether the byte range [start, end) touches a syntax error.
func (f *File) InError(start, end int) bool {
	for _, e := range f.Errors {
		if start <= e.End && e.Start <= end {
			return true
		}
	}
	return false
}

// NodeAt returns the smallest named node covering [start, end).
func (f *File) NodeAt(start, end int) *Node {
	n := f.Root
	for {
		next := (*Node)(nil)
		// Siblings are in source order, their ends too: the first whose
		// end reaches end is found by binary search (a block of thousands
		// of statements is searched once per finding).
		cs := n.Children
		for i := sort.Search(len(cs), func(i int) bool { return cs[i].End >= end }); i < len(cs) && cs[i].Start <= start; i++ {
			if c := cs[i]; end <= c.End && c.Named {
				next = c
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}
