package rewrite

import "sync"

// slab is the memory of a file's mirror: its nodes, their child pointers,
// subtree keys and sizes. An editor re-mirrors a whole document on every
// keystroke; recycling the slab of a version nobody uses any more spares
// the allocation, the zeroing and the page faults of megabytes per edit.
type slab struct {
	nodes    []Node
	children []*Node
	keys     []uint64
	sizes    []int32
}

var slabPool sync.Pool // of *slab

// newSlab returns a slab for n nodes: a released one when one large enough
// is pooled, else a new one. Nodes, child pointers and sizes are zero
// (Release clears a slab's nodes and pointers before pooling it, so the
// whole capacity of a pooled slab is zero).
func newSlab(n int) *slab {
	if s, ok := slabPool.Get().(*slab); ok && cap(s.nodes) >= n && cap(s.children) >= n-1 {
		s.nodes, s.children = s.nodes[:n], s.children[:max(n-1, 0)]
		s.keys, s.sizes = s.keys[:n], s.sizes[:n]
		clear(s.sizes) // nodes and children were cleared by Release
		return s
	}
	return &slab{make([]Node, n), make([]*Node, max(n-1, 0)), make([]uint64, n), make([]int32, n)}
}

// Release declares that neither f nor any node, model or finding's node of
// it will be used again, and recycles its memory for later parses. Only a
// caller that tracks every use of the file may call it (the language
// server counts them); the CLI leaves files to the garbage collector. A
// released file has no tree: using it panics rather than reading another
// file's nodes, but nodes kept from before are silently wrong.
func (f *File) Release() {
	if f == nil || f.slab == nil {
		return
	}
	s := f.slab
	*f = File{Src: f.Src, tree: f.tree}
	// Drop the tree's pointers before pooling: a pooled slab must not keep
	// other memory alive.
	clear(s.nodes)
	clear(s.children)
	slabPool.Put(s)
}
