package rewrite

import "sort"

// Most rules look for the calls of a few functions or methods: File and
// Model index the calls (on first use) by method name and by callee, so
// that asking costs the calls found rather than a pass over every call.

// callIndex lists a file's calls `x.name(...)` by name.
type callIndex struct {
	byMethod map[string][]*Node
}

// MethodCalls returns the calls of the form `x.name(...)` (any receiver),
// in source order.
func (f *File) MethodCalls(name string) []*Node {
	if f.calls.byMethod == nil {
		f.calls.byMethod = map[string][]*Node{}
		for _, call := range f.OfType("call") {
			fn := call.ChildByField("function")
			if fn == nil || fn.Type != "attribute" {
				continue
			}
			if attr := fn.ChildByField("attribute"); attr != nil {
				f.calls.byMethod[attr.Text()] = append(f.calls.byMethod[attr.Text()], call)
			}
		}
	}
	return f.calls.byMethod[name]
}

// CallsTo returns the calls whose callee resolves to one of the qualified
// names qs (CalleeName), in source order.
func (m *Model) CallsTo(qs ...string) []*Node {
	if m.callsByCallee == nil {
		m.callsByCallee = map[string][]*Node{}
		for _, call := range m.File.OfType("call") {
			if q := m.CalleeName(call); q != "" {
				m.callsByCallee[q] = append(m.callsByCallee[q], call)
			}
		}
	}
	if len(qs) == 1 {
		return m.callsByCallee[qs[0]]
	}
	var out []*Node
	lists := 0
	for _, q := range qs {
		if l := m.callsByCallee[q]; len(l) > 0 {
			out = append(out, l...)
			lists++
		}
	}
	if lists > 1 {
		sort.Slice(out, func(i, j int) bool { return before(out[i], out[j]) })
	}
	return out
}
