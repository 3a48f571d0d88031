package rewrite

// identifierIndex lists a file's identifier nodes by spelling, in source
// order, built on first use in two passes (count, then fill one shared
// array) so that it costs one map lookup per identifier and a handful of
// allocations whatever the file's size.
type identifierIndex struct {
	byName map[string][]*Node
}

func (f *File) identifiers() map[string][]*Node {
	if f.idents.byName != nil {
		return f.idents.byName
	}
	ids := f.OfType("identifier")
	slot := make(map[string]int32, len(ids)/4+1) // name -> index in counts
	which := make([]int32, len(ids))
	var counts []int32
	var names []string
	for i, id := range ids {
		t := id.Text()
		k, ok := slot[t]
		if !ok {
			k = int32(len(counts))
			slot[t] = k
			counts = append(counts, 0)
			names = append(names, t)
		}
		counts[k]++
		which[i] = k
	}
	all := make([]*Node, len(ids))
	lists := make([][]*Node, len(counts))
	next := 0
	for k, c := range counts {
		lists[k] = all[next : next : next+int(c)]
		next += int(c)
	}
	for i, id := range ids {
		lists[which[i]] = append(lists[which[i]], id)
	}
	byName := make(map[string][]*Node, len(names))
	for k, name := range names {
		byName[name] = lists[k]
	}
	f.idents.byName = byName
	return byName
}

// Identifiers returns the identifier nodes spelled name (variables,
// attribute names, keyword-argument names, parameters...), in source order.
func (f *File) Identifiers(name string) []*Node { return f.identifiers()[name] }

// Spells reports whether the file has an identifier spelled name.
func (f *File) Spells(name string) bool { return len(f.identifiers()[name]) > 0 }

// SpellsAny reports whether the file has an identifier spelled one of names.
func (f *File) SpellsAny(names []string) bool {
	idents := f.identifiers()
	for _, n := range names {
		if len(idents[n]) > 0 {
			return true
		}
	}
	return false
}

// IdentifierNames calls yield with each distinct identifier spelling of
// the file (in no particular order) until it returns false.
func (f *File) IdentifierNames(yield func(string) bool) {
	for name := range f.identifiers() {
		if !yield(name) {
			return
		}
	}
}
