package rewrite

/*
#include <stdint.h>
#include <stdbool.h>

// The few tree-sitter entry points the flattener needs, declared with the
// layouts of tree-sitter's api.h (the library itself is compiled and linked
// by github.com/smacker/go-tree-sitter).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } gts_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } gts_cursor;

extern gts_cursor ts_tree_cursor_new(gts_node);
extern void ts_tree_cursor_delete(gts_cursor *);
extern gts_node ts_tree_cursor_current_node(const gts_cursor *);
extern uint16_t ts_tree_cursor_current_field_id(const gts_cursor *);
extern bool ts_tree_cursor_goto_first_child(gts_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(gts_cursor *);
extern bool ts_tree_cursor_goto_parent(gts_cursor *);
extern uint16_t ts_node_symbol(gts_node);
extern uint32_t ts_node_start_byte(gts_node);
extern uint32_t ts_node_end_byte(gts_node);
extern bool ts_node_is_missing(gts_node);
extern uint32_t ts_node_descendant_count(gts_node);

typedef struct {
	uint64_t key; // the node's subtree, see gts_key
	uint32_t start, end;
	int32_t parent;
	uint16_t symbol, field;
	uint8_t missing;
	uint8_t reuse; // a reuse candidate: its descendants were not written
} gts_flat;

// gts_key identifies a node's subtree. A TSNode's id points at tree-sitter's
// Subtree value for the node, an 8-byte union of a pointer to the shared,
// immutable heap data of an inner node or a small token's packed inline
// data (subtree.h). While a tree holds a heap subtree no other subtree gets
// its address, so two nodes of trees that are both alive with the same
// heap key are one shared subtree, and two inline tokens with the same key
// have the same symbol, size and flags. TestReparseMatchesParse checks
// mirrors built on this against fresh parses.
static uint64_t gts_key(gts_node n) { return *(const uint64_t *)n.id; }

// gts_dirty reports whether the closed byte range [start, end] touches one
// of the n closed ranges in dirty (pairs of start, end).
static int gts_dirty(uint32_t start, uint32_t end, const uint32_t *dirty, int n) {
	for (int i = 0; i < n; i++) {
		if (start <= dirty[2*i+1] && dirty[2*i] <= end) return 1;
	}
	return 0;
}

// gts_flatten writes the tree below root in pre-order into out (at most cap
// nodes) and returns how many nodes it wrote, or -1 when cap was too small.
// With ndirty >= 0 it does not descend into a node (other than root) that
// is not empty and touches none of the dirty ranges: it writes that node
// with reuse set, for the caller to copy with its subtree from an older
// mirror. It stops, returning -2 and the start of the node in *deep, at a
// node nested deeper than maxdepth below root.
static int gts_flatten(gts_node root, gts_flat *out, int cap, const uint32_t *dirty, int ndirty, int maxdepth, uint32_t *deep) {
	gts_cursor c = ts_tree_cursor_new(root);
	int n = 0, parent = -1, depth = 0;
	for (;;) {
		if (n >= cap) { ts_tree_cursor_delete(&c); return -1; }
		gts_node node = ts_tree_cursor_current_node(&c);
		gts_flat *f = &out[n];
		f->key = gts_key(node);
		f->start = ts_node_start_byte(node);
		f->end = ts_node_end_byte(node);
		f->symbol = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->missing = ts_node_is_missing(node);
		f->parent = parent;
		f->reuse = ndirty >= 0 && n > 0 && f->end > f->start && !gts_dirty(f->start, f->end, dirty, ndirty);
		int self = n++;
		if (!f->reuse && ts_tree_cursor_goto_first_child(&c)) {
			parent = self;
			if (++depth > maxdepth) {
				*deep = ts_node_start_byte(ts_tree_cursor_current_node(&c));
				ts_tree_cursor_delete(&c);
				return -2;
			}
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return n; }
			depth--;
			parent = out[parent].parent;
		}
	}
}

static uint32_t gts_count(gts_node root) { return ts_node_descendant_count(root); }
*/
import "C"

import (
	"runtime"
	"sort"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// rootOf reads the C node out of a go-tree-sitter Node, whose first field
// is the C struct (layout checked by TestFlattenMatchesCursorWalk).
func rootOf(n *sitter.Node) C.gts_node {
	return *(*C.gts_node)(unsafe.Pointer(n))
}

// symbolTable caches, per grammar symbol and field id, the names the Go
// tree uses.
type symbolTable struct {
	once    sync.Once
	symbols []symbolInfo
	fields  []string
	types   []string          // distinct type names; Node.tid indexes it
	typeIDs map[string]uint16 // a type name's tid
	errorID uint16            // the tid of "ERROR"
	// The tids of the types IsDefOrLambda, IsScopeNode and IsLoop test.
	functionID, classID, lambdaID, moduleID uint16
	forID, whileID                          uint16
	identifierID                            uint16
}

type symbolInfo struct {
	typ   string
	named bool
	tid   uint16 // the type's index in symbolTable.types
}

var pythonSymbols symbolTable

func (t *symbolTable) load() {
	t.once.Do(func() {
		lang := python.GetLanguage()
		n := int(lang.SymbolCount())
		t.symbols = make([]symbolInfo, n)
		ids := map[string]uint16{}
		typeID := func(name string) uint16 {
			id, ok := ids[name]
			if !ok {
				id = uint16(len(t.types))
				ids[name] = id
				t.types = append(t.types, name)
			}
			return id
		}
		for s := 0; s < n; s++ {
			sym := sitter.Symbol(s)
			name := lang.SymbolName(sym)
			t.symbols[s] = symbolInfo{name, lang.SymbolType(sym) == sitter.SymbolTypeRegular, typeID(name)}
		}
		t.errorID = typeID("ERROR")
		t.typeIDs = ids
		t.functionID, t.classID, t.lambdaID = typeID("function_definition"), typeID("class_definition"), typeID("lambda")
		t.moduleID, t.forID, t.whileID = typeID("module"), typeID("for_statement"), typeID("while_statement")
		t.identifierID = typeID("identifier")
		t.fields = []string{""}
		for id := 1; ; id++ {
			name := lang.FieldName(id)
			if name == "" {
				break
			}
			t.fields = append(t.fields, name)
		}
	})
}

// flatPool recycles the buffers C writes the flat tree into.
var flatPool = sync.Pool{New: func() any { return new([]C.gts_flat) }}

// flatten mirrors the tree into Go nodes with a single call into C.
func (f *File) flatten(root *sitter.Node) *Node { return f.mirror(root, nil) }

// reuse tells mirror which parts of an older mirror it may copy instead of
// walking them in C. After an edit, tree-sitter's incremental parse shares
// the old tree's subtrees that the edit left alone; a node of the new tree
// that does not touch the edit and has the same subtree key (gts_key) as
// the old mirror's node at its place is copied with its descendants, moved
// by delta when it lies after the edit.
type reuse struct {
	old *File
	// dirty are closed byte ranges of the new file (start, end pairs) where
	// nothing is copied: the edit's new text, and the nodes that turned
	// out not to be shared.
	dirty []uint32
	// editEnd is where the edit's new text ends in the new file; nodes
	// that start after it moved by delta bytes.
	editEnd int
	delta   int
}

// maxReuseRounds bounds the walks mirror makes when reuse candidates turn
// out not to be shared (error recovery re-parsed them) before it walks
// the whole tree.
const maxReuseRounds = 4

// oldNode returns the old mirror's node that the reuse candidate fl is a
// copy of, and the offset its nodes move by, or nil when the old mirror
// has no node of the same type and subtree at its place.
func (r *reuse) oldNode(fl *C.gts_flat, info symbolInfo) (*Node, int) {
	start, end, d := int(fl.start), int(fl.end), 0
	if start > r.editEnd {
		d = r.delta
	}
	start, end = start-d, end-d
	n := r.old.Root
	for {
		cs := n.Children
		i := sort.Search(len(cs), func(i int) bool { return cs[i].End >= end })
		if i == len(cs) || cs[i].Start > start {
			return nil, 0
		}
		n = cs[i]
		if n.Start == start && n.End == end && n.Type == info.typ && n.Named == info.named {
			if r.old.keys[n.idx] != uint64(fl.key) {
				return nil, 0
			}
			return n, d
		}
	}
}

// match finds the old node of every reuse candidate of flat. It returns
// each entry's old slab index (-1 for a fresh node) and offset move and
// the number of nodes of the new mirror, or failed after adding the
// candidates without an old node to the dirty ranges.
func (r *reuse) match(flat []C.gts_flat) (from, shift []int, total int, failed bool) {
	from, shift = make([]int, len(flat)), make([]int, len(flat))
	for i := range flat {
		from[i] = -1
		total++
		if flat[i].reuse == 0 {
			continue
		}
		o, d := r.oldNode(&flat[i], symbolOf(&flat[i]))
		if o == nil {
			r.dirty = append(r.dirty, uint32(flat[i].start), uint32(flat[i].end))
			failed = true
			continue
		}
		from[i], shift[i] = int(o.idx), d
		total += int(r.old.sizes[o.idx]) - 1
	}
	return from, shift, total, failed
}

// walk writes the tree below croot into a pooled flat buffer; with r it
// stops at clean subtrees (reuse set). Without r, a tree nested deeper than
// MaxNesting is not written: the buffer holds its root alone, and deep is
// the offset of the first node too deep (else -1).
func walk(croot C.gts_node, r *reuse) (buf *[]C.gts_flat, deep int) {
	buf = flatPool.Get().(*[]C.gts_flat)
	var dirty *C.uint32_t
	ndirty, maxDepth := -1, C.int(MaxNesting)
	if r != nil {
		// Reused subtrees are not walked: the mirror's own check
		// (checkNesting) measures the whole tree.
		maxDepth = C.int(1 << 30)
	}
	if r != nil {
		dirty, ndirty = (*C.uint32_t)(unsafe.Pointer(&r.dirty[0])), len(r.dirty)/2
	}
	if r == nil {
		if count := int(C.gts_count(croot)); cap(*buf) < count {
			*buf = make([]C.gts_flat, count)
		}
	} else if cap(*buf) < 1024 {
		*buf = make([]C.gts_flat, 1024)
	}
	for {
		flat := (*buf)[:cap(*buf)]
		var at C.uint32_t
		n := int(C.gts_flatten(croot, (*C.gts_flat)(unsafe.Pointer(&flat[0])), C.int(len(flat)), dirty, C.int(ndirty), maxDepth, &at))
		if n == -2 {
			*buf = flat[:1]
			return buf, int(at)
		}
		if n >= 0 {
			*buf = flat[:n]
			return buf, -1
		}
		*buf = make([]C.gts_flat, 2*len(flat))
	}
}

// symbolOf returns the type name and named-ness of a flat entry.
func symbolOf(fl *C.gts_flat) symbolInfo {
	if fl.symbol == 65535 { // ts_builtin_sym_error
		return symbolInfo{typ: "ERROR", named: true, tid: pythonSymbols.errorID}
	}
	if int(fl.symbol) < len(pythonSymbols.symbols) {
		return pythonSymbols.symbols[fl.symbol]
	}
	return symbolInfo{typ: "ERROR", tid: pythonSymbols.errorID}
}

// mirror copies the tree below root into Go nodes: one slab of nodes in
// pre-order (source order) and one shared array of child pointers, so the
// mirror costs a few allocations whatever the file's size. With r, clean
// subtrees are copied from r.old's slab instead of walked in C, which makes
// an editor's re-mirror after a small edit cost a memory copy.
func (f *File) mirror(root *sitter.Node, r *reuse) *Node {
	pythonSymbols.load()
	var buf *[]C.gts_flat
	var from, shift []int // per flat entry: old slab index to copy (-1: none), offset move
	total, deep := 0, -1
	for round := 0; ; round++ {
		if round == maxReuseRounds {
			r, from, shift = nil, nil, nil
		}
		buf, deep = walk(rootOf(root), r)
		if r == nil {
			total = len(*buf)
			break
		}
		var failed bool
		from, shift, total, failed = r.match(*buf)
		if !failed {
			break
		}
		flatPool.Put(buf)
	}
	defer flatPool.Put(buf)
	flat := *buf
	if r != nil {
		// The keys match was only sound while the old tree was alive.
		runtime.KeepAlive(r.old.tree)
	}

	sl := newSlab(total)
	f.slab = sl
	sl.childCounts = zeroInts(sl.childCounts, len(flat))
	counts := sl.childCounts // per flat entry, its number of children
	for i := 1; i < len(flat); i++ {
		counts[flat[i].parent]++
	}
	nodes, keys, children := sl.nodes, sl.keys, sl.children
	sl.flatPos = resize(sl.flatPos, len(flat))
	pos := sl.flatPos // slab index of each flat entry
	at, nc := 0, 0
	for i := range flat {
		fl := &flat[i]
		pos[i] = int32(at)
		node := &nodes[at]
		if from != nil && from[i] >= 0 {
			n := f.copySubtree(nodes, children, keys, at, nc, r.old, from[i], shift[i])
			nc += n - 1 // a subtree of n nodes has n-1 child pointers
			at += n
		} else {
			info := symbolOf(fl)
			node.Type, node.Start, node.End, node.Named, node.Missing, node.tid = info.typ, int(fl.start), int(fl.end), info.named, fl.missing != 0, info.tid
			node.file, node.idx = f, int32(at)
			keys[at] = uint64(fl.key)
			node.Children = children[nc : nc : nc+int(counts[i])]
			nc += int(counts[i])
			at++
		}
		if int(fl.field) < len(pythonSymbols.fields) {
			node.Field = pythonSymbols.fields[fl.field]
		}
		if fl.parent >= 0 {
			p := &nodes[pos[fl.parent]]
			node.Parent = p
			p.Children = append(p.Children, node)
		}
	}
	f.keys = keys
	f.index(nodes)
	if deep >= 0 {
		// Mirrored as its root alone: nothing below it is walked.
		f.tooDeep = true
		f.reject(deep, deep, tooDeepMessage, MaxNesting)
	}
	return &nodes[0]
}

// copySubtree copies the subtree at old.nodes[o] into nodes at index at
// (and its keys), its child pointers into children from index nc, moving
// offsets by d. It
// returns the subtree's size. The caller links the copy's root.
func (f *File) copySubtree(nodes []Node, children []*Node, keys []uint64, at, nc int, old *File, o, d int) int {
	size := int(old.sizes[o])
	rebase := at - o // old slab index + rebase = new slab index
	copy(keys[at:at+size], old.keys[o:o+size])
	for k := range size {
		on, nn := &old.nodes[o+k], &nodes[at+k]
		*nn = *on
		nn.Start, nn.End = on.Start+d, on.End+d
		nn.file, nn.idx = f, int32(at+k)
		if k > 0 {
			nn.Parent = &nodes[int(on.Parent.idx)+rebase]
		} else {
			nn.Parent = nil // the caller links the copy's root
		}
		cs := children[nc : nc+len(on.Children) : nc+len(on.Children)]
		nc += len(on.Children)
		// The children follow their parent in pre-order, each after its
		// elder sibling's subtree: their indexes come from the sizes,
		// without loading the old child nodes (scattered in the slab).
		c := o + k + 1
		for j := range cs {
			cs[j] = &nodes[c+rebase]
			c += int(old.sizes[c])
		}
		nn.Children = cs
	}
	return size
}

// index records the slab and builds what is derived from it: subtree
// sizes, the errors and the by-type index.
func (f *File) index(nodes []Node) {
	f.nodes = nodes
	f.sizes = f.slab.sizes
	// The by-type lists share one array: count the named nodes of each
	// type (in the same pass as the subtree sizes), hand each type its
	// window, then fill them in source order.
	sl := f.slab
	sl.typeCounts = zeroInts(sl.typeCounts, len(pythonSymbols.types))
	counts := sl.typeCounts
	for i := len(nodes) - 1; i >= 0; i-- {
		f.sizes[i]++
		if i > 0 {
			f.sizes[nodes[i].Parent.idx] += f.sizes[i]
		}
		if nodes[i].Named {
			counts[nodes[i].tid]++
		}
	}
	sl.typeAll, sl.typeLists = carve(sl.typeAll, sl.typeLists, counts)
	lists := sl.typeLists
	spans := sl.identSpans[:0]
	for i := range nodes {
		node := &nodes[i]
		if node.Type == "ERROR" || node.Missing {
			f.Errors = append(f.Errors, node)
		}
		if node.Named {
			lists[node.tid] = append(lists[node.tid], node)
			if node.tid == pythonSymbols.identifierID {
				spans = append(spans, uint32(node.Start), uint32(node.End))
			}
		}
	}
	f.byType = lists
	sl.identSpans, f.idents.spans = spans, spans
	f.checkCPython()
}
