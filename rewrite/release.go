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
	// The semantic model's per-node and per-read arrays, and the binder's
	// scratch list, reused by the model of the file the slab serves.
	readAt, qnameAt []int32
	reads           []read
	loads           []load
	// arena holds the model's Bindings when it is large enough: arenaUsed
	// of them are in use, and arenaWanted is how many the file needed.
	arena                  []Binding
	arenaUsed, arenaWanted int
	// lists holds the first slot of each name's binding list, as many as
	// the arena has bindings.
	lists []*Binding
	// The mirror's scratch: per entry of the flat tree C returns, its
	// number of children and its index in the slab.
	childCounts, flatPos []int32
	// The by-type lists of the mirror: counts per type id, and the lists,
	// windows of one array.
	typeCounts []int32
	typeAll    []*Node
	typeLists  [][]*Node
	// The arrays behind the identifier index, the model's Uses, its
	// QualifiedName cache and its loop bodies, and the scratch that builds
	// them.
	identTable             []int32
	identSpans             []uint32
	identSpellings         []string
	identHashes            []uint32
	identOf, identCounts   []int32
	identAll, useAll       []*Node
	identLists, useWindows [][]*Node
	useLists               [][]*Binding
	useCounts, useWhich    []int32
	qnames                 []string
	loopNodes              []*Node
	// model is the Model struct the file's model reuses, with its maps
	// emptied; scopes are Scopes (and their Bindings maps) to reuse, the
	// first scopesUsed of them in use.
	model      *Model
	scopes     []*Scope
	scopesUsed int
}

// newModel returns the slab's Model, reset for f, with empty maps.
func (s *slab) newModel(f *File) *Model {
	m := s.model
	if m == nil {
		m = &Model{scopes: map[*Node]*Scope{}, loopInfo: map[*Node]*LoopInfo{}, defs: map[string]*Node{},
			loopBodies: map[*Node][]*Node{}, callsByName: map[string][]*Node{}}
		s.model = m
	}
	// Release emptied the Model and its maps.
	m.File, m.slab, m.loopNodes = f, s, s.loopNodes[:0]
	return m
}

// emptied returns a Model with nothing but m's maps, cleared.
func (m *Model) emptied() Model {
	clear(m.scopes)
	clear(m.loopInfo)
	clear(m.defs)
	clear(m.loopBodies)
	clear(m.callsByName)
	return Model{scopes: m.scopes, loopInfo: m.loopInfo, defs: m.defs, loopBodies: m.loopBodies, callsByName: m.callsByName}
}

// newScope returns an empty Scope, a recycled one when the slab has one.
func (s *slab) newScope() *Scope {
	if s.scopesUsed < len(s.scopes) {
		sc := s.scopes[s.scopesUsed]
		s.scopesUsed++
		return sc
	}
	sc := &Scope{Bindings: map[string][]*Binding{}}
	s.scopes = append(s.scopes, sc)
	s.scopesUsed++
	return sc
}

// scratch returns the slab whose memory the file's indexes and model reuse:
// its own, or a fresh one for a hand-built file (nothing to recycle).
func (f *File) scratch() *slab {
	if f.slab == nil {
		return &slab{}
	}
	return f.slab
}

// resize returns b with length n, reallocated only when too small. The
// caller sets every element.
func resize[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, n+n/8)
	}
	return b[:n]
}

// carve makes each list i an empty window of one shared array with room
// for counts[i] nodes, for appends to fill in order: one allocation (none
// when all and lists, passed back in, are large enough) for many lists.
func carve(all []*Node, lists [][]*Node, counts []int32) ([]*Node, [][]*Node) {
	total := 0
	for _, c := range counts {
		total += int(c)
	}
	all, lists = resize(all, total), resize(lists, len(counts))
	next := 0
	for i, c := range counts {
		lists[i] = all[next : next : next+int(c)]
		next += int(c)
	}
	return all, lists
}

// zeroInts returns b resized to n zeroes, reallocated only when too small.
func zeroInts(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n, n+n/8)
	}
	b = b[:n]
	clear(b)
	return b
}

// slabPool keeps a few released slabs. Not a sync.Pool: that one empties
// at every garbage collection, and a fresh slab of megabytes costs page
// faults (tens of milliseconds on a VM) just when an editor waits.
var slabPool struct {
	sync.Mutex
	free []*slab
}

// maxPooledSlabs bounds the memory kept for reuse: the language server
// needs one per document being edited, plus one a slow request still holds.
const maxPooledSlabs = 4

// newSlab returns a slab for n nodes: a released one when one large enough
// is pooled, else a new one with room to grow. Nodes, child pointers and
// sizes are zero (Release clears a slab's nodes and pointers before
// pooling it, so the whole capacity of a pooled slab is zero).
func newSlab(n int) *slab {
	slabPool.Lock()
	for i, s := range slabPool.free {
		if cap(s.nodes) >= n && cap(s.children) >= n-1 {
			slabPool.free = append(slabPool.free[:i], slabPool.free[i+1:]...)
			slabPool.Unlock()
			s.nodes, s.children = s.nodes[:n], s.children[:max(n-1, 0)]
			s.keys, s.sizes = s.keys[:n], s.sizes[:n]
			clear(s.sizes)
			return s
		}
	}
	slabPool.Unlock()
	c := n
	if n >= 1<<14 {
		c = n + n/8 // a large file is probably being edited: leave room to type
	}
	return &slab{nodes: make([]Node, n, c), children: make([]*Node, max(n-1, 0), c), keys: make([]uint64, n, c), sizes: make([]int32, n, c)}
}

// Release declares that neither f nor any node or model of it will be used
// again, and recycles its memory for later parses. Only a caller that
// knows every use of the file may call it: gpuopt check once a file's
// findings are made (findings hold offsets and text, no nodes), the
// language server once it counts no holder of a version. A released file
// has no tree: using it panics rather than reading another file's nodes,
// but nodes kept from before are silently wrong, and so is a *Model kept
// from before (its struct serves a later file's model).
func (f *File) Release() {
	if f == nil || f.slab == nil {
		return
	}
	s := f.slab
	if m := f.model; m != nil && m.foreign != nil {
		// The parsed modules of the project go back for the next file.
		if ps, ok := m.project.(ProjectSources); ok {
			ps.Return(m.foreign)
		}
		m.foreign = nil
	}
	if m := f.model; m != nil {
		// Keep what the rules grew, for the next file.
		if m.qnames != nil {
			s.qnames = m.qnames
		}
		if m.slab == s {
			s.loopNodes = m.loopNodes
			*m = m.emptied()
		}
	}
	for _, sc := range s.scopes[:s.scopesUsed] {
		clear(sc.Bindings)
		*sc = Scope{Bindings: sc.Bindings}
	}
	s.scopesUsed = 0
	*f = File{Src: f.Src, tree: f.tree}
	// Drop the tree's pointers before pooling: a pooled slab must not keep
	// other memory alive.
	clear(s.nodes)
	clear(s.children)
	clear(s.reads)
	s.reads = s.reads[:0]
	clear(s.arena[:s.arenaUsed])
	s.arenaUsed = 0
	// Every array that points at nodes, bindings or source text is
	// cleared too (up to its length: nothing is written beyond it).
	clear(s.lists)
	clear(s.typeAll)
	clear(s.typeLists)
	clear(s.identSpellings)
	clear(s.identAll)
	clear(s.identLists)
	clear(s.useAll)
	clear(s.useWindows)
	clear(s.useLists)
	clear(s.qnames)
	clear(s.loopNodes)
	slabPool.Lock()
	defer slabPool.Unlock()
	if len(slabPool.free) == maxPooledSlabs {
		slabPool.free = slabPool.free[1:] // the oldest goes to the collector
	}
	slabPool.free = append(slabPool.free, s)
}
