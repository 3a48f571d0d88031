package rewrite

import "strings"

// PositionalArgs returns a call's positional arguments (not *args).
func PositionalArgs(call *Node) []*Node {
	args := call.ChildByField("arguments")
	if args == nil || args.Type != "argument_list" {
		return nil
	}
	positional := func(a *Node) bool {
		return a.isNamedChild() && !a.Is("keyword_argument", "list_splat", "dictionary_splat")
	}
	count := 0
	for _, a := range args.Children {
		if positional(a) {
			count++
		}
	}
	if count == 0 {
		return nil
	}
	out := make([]*Node, 0, count)
	for _, a := range args.Children {
		if positional(a) {
			out = append(out, a)
		}
	}
	return out
}

// KeywordArg returns the keyword_argument node `name=...` of a call, or nil.
func KeywordArg(call *Node, name string) *Node {
	args := call.ChildByField("arguments")
	if args == nil {
		return nil
	}
	for _, a := range args.Children {
		if a.Named && a.Type == "keyword_argument" {
			if n := a.ChildByField("name"); n != nil && n.Text() == name {
				return a
			}
		}
	}
	return nil
}

// KeywordValue returns the value of `name=...` in a call, or nil.
func KeywordValue(call *Node, name string) *Node {
	if kw := KeywordArg(call, name); kw != nil {
		return kw.ChildByField("value")
	}
	return nil
}

// HasSplat reports whether a call passes *args or **kwargs, which hide
// what the call receives.
func HasSplat(call *Node) bool {
	args := call.ChildByField("arguments")
	if args == nil {
		return false
	}
	for _, a := range args.Children {
		if a.Named && a.Is("list_splat", "dictionary_splat") {
			return true
		}
	}
	return false
}

// HasKwargsSplat reports a `**kwargs` argument in call (which may pass any
// keyword; a `*args` one cannot).
func HasKwargsSplat(call *Node) bool {
	args := call.ChildByField("arguments")
	if args == nil {
		return false
	}
	for _, a := range args.NamedChildren() {
		if a.Type == "dictionary_splat" {
			return true
		}
	}
	return false
}

// Arg returns argument i by position, or the keyword name, or nil.
func Arg(call *Node, i int, name string) *Node {
	if v := KeywordValue(call, name); v != nil {
		return v
	}
	if pos := PositionalArgs(call); i >= 0 && i < len(pos) {
		return pos[i]
	}
	return nil
}

// StringValue returns the content of a plain string literal (no f-string,
// no implicit concatenation) and whether n was one.
func StringValue(n *Node) (string, bool) {
	if n == nil || n.Type != "string" {
		return "", false
	}
	var content strings.Builder
	for _, c := range n.Children {
		switch c.Type {
		case "string_start":
			if strings.ContainsAny(strings.ToLower(c.Text()), "fb") {
				return "", false
			}
		case "string_content":
			if strings.Contains(c.Text(), "\\") {
				return "", false
			}
			content.WriteString(c.Text())
		case "interpolation", "escape_sequence":
			return "", false
		}
	}
	return content.String(), true
}

// QuoteLike returns s quoted with the quote character of the string literal
// model (double quotes when model is nil or not a string).
func QuoteLike(model *Node, s string) string {
	q := `"`
	if model != nil && model.Type == "string" {
		if t := model.Text(); strings.HasPrefix(strings.TrimLeft(t, "rRuU"), "'") {
			q = "'"
		}
	}
	return q + s + q
}

// DeleteArgEdit returns the edit that removes an argument (positional or
// keyword) from its argument list or dict entry from its dictionary,
// together with the comma that separates it from its neighbour.
func DeleteArgEdit(item *Node) Edit {
	list := item.Parent
	var items []*Node
	for _, c := range list.Children {
		if c.Named && c.Type != "comment" {
			items = append(items, c)
		}
	}
	idx := -1
	for i, c := range items {
		if c == item {
			idx = i
		}
	}
	src := item.file.Src.Bytes
	switch {
	case len(items) == 1:
		return Edit{Start: item.Start, End: trailingComma(src, item.End), New: ""}
	case idx < len(items)-1:
		// An item on lines of its own: remove those lines (keeping its
		// trailing comment). Otherwise remove "item, " up to the next item,
		// keeping the next item's position.
		if e, ok := ownLinesEdit(item); ok {
			return e
		}
		return Edit{Start: item.Start, End: items[idx+1].Start, New: ""}
	default:
		// Last item on lines of its own: remove those lines (with its comma
		// and comment), so that the previous item's comment stays.
		if e, ok := ownLinesEdit(item); ok {
			return e
		}
		// Last item: remove from the previous item's end.
		return Edit{Start: items[idx-1].End, End: item.End, New: ""}
	}
}

// ownLinesEdit removes the lines item occupies when nothing but
// indentation precedes it and nothing but a comma and a comment follows it.
func ownLinesEdit(item *Node) (Edit, bool) {
	src := item.file.Src
	first, last := src.LineOf(item.Start), src.LineOf(item.End)
	if strings.TrimSpace(src.Text(src.LineStart(first), item.Start)) != "" || last+1 >= src.LineCount() {
		return Edit{}, false
	}
	rest := strings.TrimSpace(src.RestOfLine(item.End))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ","))
	if rest != "" && !strings.HasPrefix(rest, "#") {
		return Edit{}, false
	}
	return KeepTrailingComment(item, Edit{Start: src.LineStart(first), End: src.LineStart(last + 1), New: ""}), true
}

// KeepTrailingComment narrows a whole-line deletion of node so that a
// comment after node on its last line stays where it was, on a line of its
// own: `x = 1  # why` becomes `# why` at x's indentation.
func KeepTrailingComment(node *Node, e Edit) Edit {
	src := node.file.Src
	last := src.LineOf(node.End)
	for _, c := range node.file.OfType("comment") {
		if c.Start >= node.End && src.LineOf(c.Start) == last {
			return Edit{Start: node.Start, End: c.Start}
		}
		if c.Start > src.LineEnd(last) {
			break
		}
	}
	return e
}

// trailingComma extends end over whitespace and one comma that follow it.
func trailingComma(src []byte, end int) int {
	i := end
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i < len(src) && src[i] == ',' {
		return i + 1
	}
	return end
}
