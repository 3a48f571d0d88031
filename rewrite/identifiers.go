package rewrite

// identifierIndex numbers a file's identifier spellings (on first use: one
// map lookup per identifier) and lists each spelling's nodes in source order
// (on first use of the lists: a second pass filling one shared array). Rules
// mostly ask whether a name occurs at all, which needs only the numbering.
type identifierIndex struct {
	slot   map[string]int32 // spelling -> its number
	counts []int32          // per number, how many identifiers spell it
	lists  [][]*Node        // per number, the identifiers (nil: not built)
}

func (f *File) identifierSlots() map[string]int32 {
	x := &f.idents
	if x.slot != nil {
		return x.slot
	}
	ids := f.OfType("identifier")
	x.slot = make(map[string]int32, len(ids)/3+1)
	for _, id := range ids {
		t := id.Text()
		k, ok := x.slot[t]
		if !ok {
			k = int32(len(x.counts))
			x.slot[t] = k
			x.counts = append(x.counts, 0)
		}
		x.counts[k]++
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
		ids := f.OfType("identifier")
		all := make([]*Node, len(ids))
		x.lists = make([][]*Node, len(x.counts))
		next := 0
		for i, c := range x.counts {
			x.lists[i] = all[next : next : next+int(c)]
			next += int(c)
		}
		for _, id := range ids {
			j := x.slot[id.Text()]
			x.lists[j] = append(x.lists[j], id)
		}
	}
	return x.lists[k]
}

// Spells reports whether the file has an identifier spelled name.
func (f *File) Spells(name string) bool {
	_, ok := f.identifierSlots()[name]
	return ok
}

// SpellsAny reports whether the file has an identifier spelled one of names.
func (f *File) SpellsAny(names []string) bool {
	slots := f.identifierSlots()
	for _, n := range names {
		if _, ok := slots[n]; ok {
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
