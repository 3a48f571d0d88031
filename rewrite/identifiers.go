package rewrite

import "slices"

// identifierIndex numbers a file's identifier spellings (on first use: one
// map lookup per identifier) and lists each spelling's nodes in source order
// (on first use of the lists: a second pass filling one shared array). Rules
// mostly ask whether a name occurs at all, which needs only the numbering.
type identifierIndex struct {
	slot map[string]int32 // spelling -> its number
	// filter has the bit spellingBit of every spelling set: a name whose
	// bit is clear is absent without asking the map, which is most names
	// the rules' gates ask for.
	filter [16]uint64
	of     []int32   // per identifier (in OfType order), its number
	counts []int32   // per number, how many identifiers spell it
	lists  [][]*Node // per number, the identifiers (nil: not built)
}

func (f *File) identifierSlots() map[string]int32 {
	x := &f.idents
	if x.slot != nil {
		return x.slot
	}
	ids := f.OfType("identifier")
	sl := f.scratch()
	if sl.identSlot == nil {
		sl.identSlot = make(map[string]int32, len(ids)/3+1)
	}
	x.slot = sl.identSlot // empty: Release clears it
	sl.identOf = resize(sl.identOf, len(ids))
	x.of, x.counts = sl.identOf, sl.identCounts[:0]
	defer func() { sl.identCounts = x.counts }()
	for i, id := range ids {
		t := id.Text()
		k, ok := x.slot[t]
		if !ok {
			k = int32(len(x.counts))
			x.slot[t] = k
			x.counts = append(x.counts, 0)
			bit := spellingBit(t)
			x.filter[bit/64] |= 1 << (bit % 64)
		}
		x.counts[k]++
		x.of[i] = k
	}
	return x.slot
}

// Identifiers returns the identifier nodes spelled name (variables,
// attribute names, keyword-argument names, parameters...), in source order.
func (f *File) Identifiers(name string) []*Node {
	k, ok := f.identifierSlots()[name]
	if !ok {
		return nil
	}
	x := &f.idents
	if x.lists == nil {
		sl := f.scratch()
		sl.identAll = resize(sl.identAll, len(x.of))
		sl.identLists = resize(sl.identLists, len(x.counts))
		all := sl.identAll
		x.lists = sl.identLists
		next := 0
		for i, c := range x.counts {
			x.lists[i] = all[next : next : next+int(c)]
			next += int(c)
		}
		for i, id := range f.OfType("identifier") {
			j := x.of[i]
			x.lists[j] = append(x.lists[j], id)
		}
	}
	return x.lists[k]
}

// spellingBit hashes a spelling (FNV-1a) to a bit of identifierIndex.filter.
func spellingBit(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h % (16 * 64)
}

// Spells reports whether the file has an identifier spelled name.
func (f *File) Spells(name string) bool {
	slots := f.identifierSlots()
	if bit := spellingBit(name); f.idents.filter[bit/64]&(1<<(bit%64)) == 0 {
		return false
	}
	_, ok := slots[name]
	return ok
}

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
	for name := range f.identifierSlots() {
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
