package rewrite

import (
	"slices"
	"strings"
)

// Most rules look for the calls of a few functions or methods: File and
// Model index the calls (on first use) by method name and by callee, so
// that asking costs the calls found rather than a pass over every call.

// CallsTo returns the calls whose callee resolves to one of the qualified
// names qs (CalleeName), in source order. Only the calls whose callee ends
// in a name's last part are resolved: `x.train(...)` for "xgboost.train",
// and plain-name calls by the last part of what the name resolves to
// (`fit(...)` after `from xgboost import train as fit`).
func (m *Model) CallsTo(qs ...string) []*Node {
	var out []*Node
	for _, q := range qs {
		last := q[strings.LastIndexByte(q, '.')+1:]
		for _, id := range m.File.Identifiers(last) { // `x.last(...)`
			if call := methodCallOf(id); call != nil && m.CalleeName(call) == q {
				out = append(out, call)
			}
		}
		for _, call := range m.nameCalls()[last] {
			if m.CalleeName(call) == q {
				out = append(out, call)
			}
		}
	}
	if !slices.IsSortedFunc(out, preorder) {
		slices.SortFunc(out, preorder)
	}
	return out
}

// nameCalls indexes the calls of anything but an attribute (a plain name
// `f(...)`, `(f)(...)`) by the last part of the callee's qualified name.
func (m *Model) nameCalls() map[string][]*Node {
	if !m.callsIndexed {
		m.callsIndexed = true
		for _, call := range m.File.OfType("call") {
			fn := call.ChildByField("function")
			if fn == nil || fn.Type == "attribute" {
				continue // in MethodCalls
			}
			q := m.QualifiedName(fn) // a name, or one in parentheses
			if q == "" {
				continue
			}
			last := q[strings.LastIndexByte(q, '.')+1:]
			m.callsByName[last] = append(m.callsByName[last], call)
		}
	}
	return m.callsByName
}

// preorder compares nodes by their place in a pre-order walk.
func preorder(a, b *Node) int {
	switch {
	case a == b:
		return 0
	case before(a, b):
		return -1
	}
	return 1
}
