package rewrite

import "slices"

// identifierIndex numbers a file's identifier spellings (on first use: one
// hash-table probe per identifier) and lists each spelling's nodes in
// source order (on first use of the lists: a second pass filling one
// shared array). Rules mostly ask whether a name occurs at all, which needs
// only the numbering.
type identifierIndex struct {
	built bool
	// spans are the identifiers' byte ranges (start, end pairs, in OfType
	// order), recorded while the mirror is indexed: the numbering reads
	// the spellings without loading each node (nil: read the nodes).
	spans []uint32
	// table is an open-addressing hash table of the spellings: an entry is
	// 1 + a spelling's number (0: empty), found from the spelling's hash
	// by linear probing. Its size is a power of two at least twice the
	// number of identifiers, so it is never full. It beats a Go map here
	// because every identifier of the file is looked up once and most
	// spellings recur.
	table     []int32
	spellings []string // per number, the spelling
	hashes    []uint32 // per number, the spelling's hash
	// filter has bit hash%1024 of every spelling set: a name whose bit is
	// clear is absent without probing, which is most names the rules'
	// gates ask for.
	filter [16]uint64
	of     []int32   // per identifier (in OfType order), its number
	counts []int32   // per number, how many identifiers spell it
	lists  [][]*Node // per number, the identifiers (nil: not built)
}

// spellingHash is FNV-1a: short names hash in a few nanoseconds, inline.
func spellingHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// find returns the number of spelling s of hash h (-1 when absent) and the
// table slot where it is or would go.
func (x *identifierIndex) find(s string, h uint32) (int32, int) {
	mask := len(x.table) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := x.table[i]
		if e == 0 {
			return -1, i
		}
		if x.hashes[e-1] == h && x.spellings[e-1] == s {
			return e - 1, i
		}
	}
}

// identifiers builds the numbering on first use and returns the index.
func (f *File) identifiers() *identifierIndex {
	x := &f.idents
	if x.built {
		return x
	}
	x.built = true
	ids := f.OfType("identifier")
	sl := f.scratch()
	size := 16
	for size < 2*len(ids) {
		size *= 2
	}
	sl.identTable = zeroInts(sl.identTable, size)
	sl.identOf = resize(sl.identOf, len(ids))
	x.table, x.of = sl.identTable, sl.identOf
	x.spellings, x.hashes, x.counts = sl.identSpellings[:0], sl.identHashes[:0], sl.identCounts[:0]
	fromSpans := len(x.spans) == 2*len(ids)
	for i, id := range ids {
		var t string
		if fromSpans {
			t = f.Src.Text(int(x.spans[2*i]), int(x.spans[2*i+1]))
		} else {
			t = id.Text()
		}
		h := spellingHash(t)
		k, at := x.find(t, h)
		if k < 0 {
			k = int32(len(x.counts))
			x.table[at] = k + 1
			x.spellings, x.hashes, x.counts = append(x.spellings, t), append(x.hashes, h), append(x.counts, 0)
			x.filter[h%1024/64] |= 1 << (h % 64)
		}
		x.counts[k]++
		x.of[i] = k
	}
	sl.identSpellings, sl.identHashes, sl.identCounts = x.spellings, x.hashes, x.counts
	return x
}

// number returns the number of spelling name, or -1 when no identifier of
// the file spells it.
func (f *File) number(name string) int32 { return f.numberHashed(name, spellingHash(name)) }

// numberHashed is number given the name's spellingHash.
func (f *File) numberHashed(name string, h uint32) int32 {
	x := f.identifiers()
	if x.filter[h%1024/64]&(1<<(h%64)) == 0 {
		return -1
	}
	k, _ := x.find(name, h)
	return k
}

// Spellings are names hashed once, for asking many files about them:
// rules' gates ask every file about the same few names.
type Spellings struct {
	names  []string
	hashes []uint32
}

// NewSpellings hashes names.
func NewSpellings(names []string) Spellings {
	s := Spellings{names: names, hashes: make([]uint32, len(names))}
	for i, n := range names {
		s.hashes[i] = spellingHash(n)
	}
	return s
}

// SpellsAnyOf reports whether the file has an identifier spelled one of s.
func (f *File) SpellsAnyOf(s Spellings) bool {
	for i, n := range s.names {
		if f.numberHashed(n, s.hashes[i]) >= 0 {
			return true
		}
	}
	return false
}

// Identifiers returns the identifier nodes spelled name (variables,
// attribute names, keyword-argument names, parameters...), in source order.
// The slice is shared: callers must not modify it.
func (f *File) Identifiers(name string) []*Node {
	k := f.number(name)
	if k < 0 {
		return nil
	}
	x := &f.idents
	if x.lists == nil {
		sl := f.scratch()
		sl.identAll, sl.identLists = carve(sl.identAll, sl.identLists, x.counts)
		x.lists = sl.identLists
		for i, id := range f.OfType("identifier") {
			j := x.of[i]
			x.lists[j] = append(x.lists[j], id)
		}
	}
	return x.lists[k]
}

// Spells reports whether the file has an identifier spelled name.
func (f *File) Spells(name string) bool { return f.number(name) >= 0 }

// SpellsAny reports whether the file has an identifier spelled one of names.
func (f *File) SpellsAny(names []string) bool {
	for _, n := range names {
		if f.Spells(n) {
			return true
		}
	}
	return false
}

// SpellsMatching reports whether the file has an identifier whose spelling
// match accepts (each distinct spelling is asked once).
func (f *File) SpellsMatching(match func(string) bool) bool {
	for _, name := range f.identifiers().spellings {
		if match(name) {
			return true
		}
	}
	return false
}

// MethodCalls returns the calls of the form `x.name(...)` (any receiver),
// in source order: the calls whose function is an attribute named by one
// of the identifiers spelled name.
func (f *File) MethodCalls(name string) []*Node {
	ids := f.Identifiers(name)
	if len(ids) == 0 {
		return nil
	}
	var out []*Node
	for _, id := range ids {
		if call := methodCallOf(id); call != nil {
			out = append(out, call)
		}
	}
	// An identifier follows its call's receiver, so `a.name().name()`
	// lists the inner call first: put the calls in source order.
	if !slices.IsSortedFunc(out, preorder) {
		slices.SortFunc(out, preorder)
	}
	return out
}

// methodCallOf returns the call `x.id(...)` whose method id names, or nil.
func methodCallOf(id *Node) *Node {
	attr := id.Parent
	if id.Field != "attribute" || attr == nil || attr.Type != "attribute" {
		return nil
	}
	if call := attr.Parent; call != nil && attr.Field == "function" && call.Type == "call" {
		return call
	}
	return nil
}
