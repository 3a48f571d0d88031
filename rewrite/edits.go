package rewrite

import (
	"sort"
	"strings"
)

// AppendItem returns the edit that adds text as the last item of an
// argument list, dictionary, list or tuple, following the container's
// layout: `, text` after the last item on one line; a new line with the
// items' indentation and a trailing comma when the items end with one.
// ok is false for containers it cannot extend (a bare generator argument),
// and for a keyword argument ("name=value") that a call already passes or
// may pass through a ** splat: adding it would raise "got multiple values
// for keyword argument" at run time.
func AppendItem(container *Node, text string) (Edit, bool) {
	return appendItem(container, text, false)
}

// AppendItemBesideSplats is AppendItem for a caller that has resolved the
// keys of every ** splat of the call and knows none of them is text's
// keyword: it still refuses a keyword the call spells out.
func AppendItemBesideSplats(container *Node, text string) (Edit, bool) {
	return appendItem(container, text, true)
}

func appendItem(container *Node, text string, splatsResolved bool) (Edit, bool) {
	if !container.Is("argument_list", "dictionary", "list", "tuple", "set") {
		return Edit{}, false
	}
	src := container.file.Src
	items := container.NamedChildren()
	if name := keywordOf(text); name != "" && container.Type == "argument_list" {
		for _, it := range items {
			// f(**opts) may already pass the keyword (a TypeError at run
			// time if we add it again), and f(k=1) certainly does.
			if (it.Is("dictionary_splat") && !splatsResolved) || (it.Is("keyword_argument") && it.ChildByField("name").Text() == name) {
				return Edit{}, false
			}
		}
	}
	if len(items) == 0 {
		open := container.Children[0]
		return Edit{Start: open.End, End: open.End, New: text}, true
	}
	last := items[len(items)-1]
	if last.Is("generator_expression") && container.Type == "argument_list" && len(items) == 1 {
		return Edit{}, false
	}
	i := last.End
	for i < len(src.Bytes) && (src.Bytes[i] == ' ' || src.Bytes[i] == '\t') {
		i++
	}
	trailingComma := i < len(src.Bytes) && src.Bytes[i] == ','
	closing := container.Children[len(container.Children)-1]
	closeLine := src.LineOf(closing.Start)
	if trailingComma && src.LineOf(last.Start) != closeLine &&
		strings.TrimSpace(string(src.Bytes[src.LineStart(closeLine):closing.Start])) == "" {
		at := src.LineStart(closeLine)
		return Edit{Start: at, End: at, New: src.IndentOf(last.Start) + text + "," + src.LineEnding}, true
	}
	if trailingComma {
		return Edit{Start: i + 1, End: i + 1, New: " " + text}, true
	}
	return Edit{Start: last.End, End: last.End, New: ", " + text}, true
}

// LocalName returns how code at site can spell the qualified name q using
// the module's existing imports ("xgb.QuantileDMatrix" for
// "xgboost.QuantileDMatrix" when the file does `import xgboost as xgb`),
// checking that the spelling resolves back to q at site.
func (m *Model) LocalName(site *Node, q string) (string, bool) {
	var best string
	for _, b := range m.moduleImports {
		name := b.Name
		{
			var spelled string
			switch {
			case b.Qualified == q:
				spelled = name
			case len(q) > len(b.Qualified) && q[len(b.Qualified)] == '.' && strings.HasPrefix(q, b.Qualified):
				spelled = name + q[len(b.Qualified):]
			default:
				continue
			}
			if !m.resolvesAt(site, name, b.Qualified) {
				continue
			}
			if best == "" || len(spelled) < len(best) || len(spelled) == len(best) && spelled < best {
				best = spelled
			}
		}
	}
	return best, best != ""
}

// resolvesAt reports whether name, read at site, means the import q. At
// import time (site in no function or lambda) an import below the site
// has not run yet: one of the imports must come first.
func (m *Model) resolvesAt(site *Node, name, q string) bool {
	bs := m.lookup(m.ScopeOf(site), name)
	if len(bs) == 0 {
		return false
	}
	earlier := false
	for _, b := range bs {
		if b.Kind != ImportBinding || b.Qualified != q {
			return false
		}
		earlier = earlier || b.Stmt == nil || b.Stmt.End <= m.runsAt(site)
	}
	return earlier || site != m.File.Root && site.Ancestor("function_definition", "lambda") != nil
}

// runsAt is the offset before which a module-level statement must have run
// for code at site to see it: site's start, or for the module root (a
// statement SpellAtModule spells, inserted after the opening imports) the
// end of ImportAnchor.
func (m *Model) runsAt(site *Node) int {
	if site != m.File.Root {
		return site.Start
	}
	if a := m.File.ImportAnchor(); a != nil {
		return a.End
	}
	return 0
}

// AddImport returns an edit that makes `from module import name` available
// at module level: it extends an existing `from module import ...` or adds
// a new line after the file's top-level imports (after the docstring and
// `from __future__` imports when there are no others). ok is false when
// name is already bound at module level to something else.
func (m *Model) AddImport(module, name string) (Edit, bool) {
	if bs, ok := m.Module.Bindings[name]; ok {
		for _, b := range bs {
			if b.Kind != ImportBinding || b.Qualified != module+"."+name {
				return Edit{}, false
			}
		}
		return Edit{}, true // already imported: nothing to do
	}
	for _, c := range m.File.Root.Children {
		if c.Type == "import_from_statement" {
			if mn := c.ChildByField("module_name"); mn != nil && dotted(mn) == module && !hasWildcard(c) {
				if names := fieldNodes(c, "name"); len(names) > 0 {
					last := names[len(names)-1]
					return Edit{Start: last.End, End: last.End, New: ", " + name}, true
				}
			}
		}
	}
	return m.InsertAfterImports("from " + module + " import " + name), true
}

// ImportAnchor returns the module-level statement after which a new import
// (or a statement that must run before the module's code) goes: the last
// import of the statements that open the module, else its __future__
// imports or docstring, else nil (the very top). Imports further down,
// after the first other statement, are not anchors: code above them may
// use the new name (a tutorial that imports as it goes).
func (f *File) ImportAnchor() *Node {
	var lastImport, lastHead *Node
	for _, c := range f.Root.Children {
		switch {
		case c.Is("import_statement", "import_from_statement"):
			lastImport = c
		case c.Type == "future_import_statement":
			lastHead = c
		case c.Type == "comment":
		case c.Type == "expression_statement" && lastHead == nil && lastImport == nil && len(c.NamedChildren()) == 1 && c.NamedChildren()[0].Type == "string":
			lastHead = c // module docstring
		default:
			if lastImport != nil {
				return lastImport
			}
			return lastHead
		}
	}
	if lastImport != nil {
		return lastImport
	}
	return lastHead
}

// InsertAfterImports returns an edit inserting stmt (one line, no line
// ending) at module level after the imports that open the module
// (ImportAnchor).
//
// A statement that names a module-level import made further down goes
// after that import instead (`device = torch.device(...)` in a file that
// imports torch below its first code).
func (m *Model) InsertAfterImports(stmt string) Edit {
	src := m.File.Src
	after := m.File.ImportAnchor()
	isImport := strings.HasPrefix(stmt, "import ") || strings.HasPrefix(stmt, "from ")
	for _, name := range leadingNames(stmt) {
		if isImport {
			break // an import needs no other name
		}
		for _, b := range m.Module.Bindings[name] {
			if b.Kind == ImportBinding && b.Stmt != nil && b.Stmt.Parent == m.File.Root && (after == nil || b.Stmt.End > after.End) {
				after = b.Stmt
			}
		}
	}
	if after == nil {
		return Edit{Start: 0, End: 0, New: stmt + src.LineEnding, Top: true}
	}
	end := src.LineEnd(src.LineOf(after.End))
	return Edit{Start: end, End: end, New: src.LineEnding + stmt, Top: true}
}

// leadingNames returns the names a line of Python code reads first in
// dotted chains (`torch` of torch.device(...)): identifiers not after a
// dot, outside string literals. A rough scan, for InsertAfterImports.
func leadingNames(code string) []string {
	var out []string
	var quote byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(code) && (code[j] == '_' || code[j] >= 'a' && code[j] <= 'z' || code[j] >= 'A' && code[j] <= 'Z' || code[j] >= '0' && code[j] <= '9') {
				j++
			}
			if i == 0 || code[i-1] != '.' {
				out = append(out, code[i:j])
			}
			i = j - 1
		}
	}
	return out
}

func hasWildcard(n *Node) bool {
	for _, c := range n.Children {
		if c.Type == "wildcard_import" {
			return true
		}
	}
	return false
}

func fieldNodes(n *Node, field string) []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Field == field {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// keywordOf returns the keyword of an argument written "name=value", or "".
func keywordOf(text string) string {
	i := 0
	for i < len(text) && (text[i] == '_' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || i > 0 && text[i] >= '0' && text[i] <= '9') {
		i++
	}
	if i == 0 || i >= len(text) || text[i] != '=' || i+1 < len(text) && text[i+1] == '=' {
		return ""
	}
	return text[:i]
}
