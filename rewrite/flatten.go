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
	uint32_t start, end;
	int32_t parent;
	uint16_t symbol, field;
	uint8_t missing;
} gts_flat;

// gts_flatten writes the tree below root in pre-order into out (at most cap
// nodes) and returns how many nodes it wrote.
static int gts_flatten(gts_node root, gts_flat *out, int cap) {
	gts_cursor c = ts_tree_cursor_new(root);
	int n = 0, parent = -1;
	for (;;) {
		if (n >= cap) break;
		gts_node node = ts_tree_cursor_current_node(&c);
		gts_flat *f = &out[n];
		f->start = ts_node_start_byte(node);
		f->end = ts_node_end_byte(node);
		f->symbol = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->missing = ts_node_is_missing(node);
		f->parent = parent;
		int self = n++;
		if (ts_tree_cursor_goto_first_child(&c)) { parent = self; continue; }
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return n; }
			parent = out[parent].parent;
		}
	}
	ts_tree_cursor_delete(&c);
	return n;
}

static uint32_t gts_count(gts_node root) { return ts_node_descendant_count(root); }
*/
import "C"

import (
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
}

type symbolInfo struct {
	typ   string
	named bool
}

var pythonSymbols symbolTable

func (t *symbolTable) load() {
	t.once.Do(func() {
		lang := python.GetLanguage()
		n := int(lang.SymbolCount())
		t.symbols = make([]symbolInfo, n)
		for s := 0; s < n; s++ {
			sym := sitter.Symbol(s)
			t.symbols[s] = symbolInfo{lang.SymbolName(sym), lang.SymbolType(sym) == sitter.SymbolTypeRegular}
		}
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

// flatten mirrors the tree into Go nodes with a single call into C.
func (f *File) flatten(root *sitter.Node) *Node {
	pythonSymbols.load()
	croot := rootOf(root)
	count := int(C.gts_count(croot))
	flat := make([]C.gts_flat, count)
	n := int(C.gts_flatten(croot, (*C.gts_flat)(unsafe.Pointer(&flat[0])), C.int(count)))
	nodes := make([]Node, n)
	// Children of all nodes share one backing array: count first, then
	// hand each parent its window, so the mirror costs two allocations.
	counts := make([]int32, n)
	for i := 1; i < n; i++ {
		counts[flat[i].parent]++
	}
	children := make([]*Node, n)
	next := 0
	for i := 0; i < n; i++ {
		nodes[i].Children = children[next : next : next+int(counts[i])]
		next += int(counts[i])
	}
	f.byType = make(map[string][]*Node, 64)
	for i := 0; i < n; i++ {
		fl := &flat[i]
		info := symbolInfo{typ: "ERROR"}
		if int(fl.symbol) < len(pythonSymbols.symbols) {
			info = pythonSymbols.symbols[fl.symbol]
		}
		if fl.symbol == 65535 { // ts_builtin_sym_error
			info = symbolInfo{typ: "ERROR", named: true}
		}
		node := &nodes[i]
		node.Type, node.Start, node.End, node.Named, node.Missing, node.file = info.typ, int(fl.start), int(fl.end), info.named, fl.missing != 0, f
		if int(fl.field) < len(pythonSymbols.fields) {
			node.Field = pythonSymbols.fields[fl.field]
		}
		if fl.parent >= 0 {
			p := &nodes[fl.parent]
			node.Parent = p
			p.Children = append(p.Children, node)
		}
		if node.Type == "ERROR" || node.Missing {
			f.Errors = append(f.Errors, node)
		}
		if info.named {
			f.byType[node.Type] = append(f.byType[node.Type], node)
		}
	}
	return &nodes[0]
}
