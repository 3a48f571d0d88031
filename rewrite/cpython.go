package rewrite

import (
	"context"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// tree-sitter's Python grammar is lenient: it accepts Python 2 (`print "x"`,
// backticks, `<>`, `0777`), mixed tabs and spaces, and constructs CPython's
// compiler rejects (`return` outside a function, a repeated keyword
// argument, nesting past the tokenizer's limits). gpuopt must not analyse
// past them or rewrite such a file, so after the mirror is built the file
// is checked for them, and each one found becomes a syntax error (an
// element of File.Errors with its own message). TestCPython* check a list
// of snippets that .ci/run also feeds to CPython, so the list stays honest.

// MaxNesting is the deepest syntax tree gpuopt analyses. Deeper files (a
// million nested `-` or `(`) are reported as a syntax error and not
// analysed at all, so that no walk over the tree can exhaust the stack.
// CPython rejects nesting far shallower than this (it fails to compile a
// chain of about 3,000 unary operators); what CPython accepts deeper (a
// long `a or b or ...` chain, flat for it) is not analysed either.
const MaxNesting = 10000

// CPython's tokenizer limits (Parser/tokenizer.h): MAXLEVEL nested
// brackets, MAXINDENT levels of indentation, tabs every 8 columns.
const (
	maxBracketLevel = 200
	maxIndentLevel  = 100
	tabSize         = 8
)

// tooDeepMessage is the syntax error of a file nested past MaxNesting.
const tooDeepMessage = "nesting too deep: more than %d levels (not analysed)"

// TooDeep reports whether the file nests deeper than MaxNesting: it is
// reported as a syntax error and has an empty model.
func (f *File) TooDeep() bool { return f.tooDeep }

// Rejected reports whether the file holds a construct CPython rejects
// (or nests too deep): no fix may touch such a file, anywhere.
func (f *File) Rejected() bool { return len(f.errorMessages) > 0 }

// FirstRejection returns the first construct CPython rejects, as the
// finding editors show for it (code E999), and whether there is one.
func (f *File) FirstRejection() (Finding, bool) {
	for _, e := range f.Errors {
		if msg, ok := f.errorMessages[e]; ok {
			return Finding{Code: "E999", Message: "syntax error: " + msg + " (never rewritten)", Start: e.Start, End: e.End, Severity: Error}, true
		}
	}
	return Finding{}, false
}

// reject records a construct CPython rejects as a syntax error covering
// [start, end) with its message.
func (f *File) reject(start, end int, format string, args ...any) {
	pythonSymbols.load()
	n := &Node{Type: "ERROR", Named: true, Start: start, End: end, file: f, tid: pythonSymbols.errorID, idx: -1}
	if f.errorMessages == nil {
		f.errorMessages = map[*Node]string{}
	}
	f.errorMessages[n] = fmt.Sprintf(format, args...)
	f.Errors = append(f.Errors, n)
}

// checkCPython runs after index: it measures the nesting, then looks for
// what CPython rejects, and keeps File.Errors in source order.
func (f *File) checkCPython() {
	f.forgiveAnnotationGaps()
	before := len(f.Errors)
	if !f.checkNesting() {
		f.checkInvisibleCharacters()
		f.checkLegacySyntax()
		f.checkKeywordArguments()
		if before == 0 {
			// Only a clean parse says where a statement is (error recovery
			// can leave a `return` of a broken def at the top) and where
			// brackets close.
			f.checkContext()
			f.checkIndentation()
			f.checkEmptyBlocks()
			f.checkTargets()
		}
	}
	if len(f.Errors) > before {
		sort.SliceStable(f.Errors, func(i, j int) bool { return f.Errors[i].Start < f.Errors[j].Start })
	}
}

// checkTargets rejects what CPython cannot delete or assign to: a call,
// a literal or an operator expression as a `del` target (`del
// float(x)`: "cannot delete function call"), or as the target of an
// assignment or augmented assignment. (A fix that wrapped a name in a
// call wrote one: blind sample S38AM, SYNC002's float() around `del
// running_loss`.)
func (f *File) checkTargets() {
	var check func(t *Node, verb string)
	check = func(t *Node, verb string) {
		if t == nil {
			return
		}
		switch t.Type {
		case "identifier", "attribute", "subscript", "list_splat_pattern", "list_splat":
		case "expression_list", "tuple", "list", "pattern_list", "tuple_pattern", "list_pattern", "parenthesized_expression":
			for _, c := range t.NamedChildren() {
				check(c, verb)
			}
		case "call":
			f.reject(t.Start, t.End, "cannot %s function call", verb)
		case "integer", "float", "string", "true", "false", "none", "binary_operator", "boolean_operator", "comparison_operator", "unary_operator":
			f.reject(t.Start, t.End, "cannot %s %s", verb, strings.ReplaceAll(t.Type, "_", " "))
		}
	}
	for _, d := range f.OfType("delete_statement") {
		for _, t := range d.NamedChildren() {
			check(t, "delete")
		}
	}
	for _, a := range f.OfType("augmented_assignment") {
		check(a.ChildByField("left"), "assign to")
	}
}

// invisibleCharacters are the characters tree-sitter's grammar skips as
// whitespace and CPython's tokenizer rejects outside strings and comments
// ("invalid non-printable character U+FEFF"), a byte-order mark after
// the file's first byte included (blind sample S33BA's StarDist port,
// whose scripts carry one at line 5 and were reported clean).
var invisibleCharacters = map[string]string{"\ufeff": "U+FEFF", "\u200b": "U+200B", "\u2060": "U+2060"}

// checkInvisibleCharacters rejects each invisibleCharacters rune outside
// a string or a comment (a BOM at offset 0 is the encoding's mark).
func (f *File) checkInvisibleCharacters() {
	src := f.Src.Bytes
	for ch, name := range invisibleCharacters {
		for from := 0; ; {
			i := strings.Index(string(src[from:]), ch)
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(ch)
			if at == 0 && ch == "\ufeff" {
				continue
			}
			inside := false
			for _, typ := range []string{"string", "comment"} {
				for _, n := range f.OfType(typ) {
					if n.Start <= at && at < n.End {
						inside = true
					}
				}
			}
			if !inside {
				f.reject(at, at+len(ch), "invalid non-printable character %s", name)
			}
		}
	}
}

// checkEmptyBlocks finds a compound statement whose body holds no
// statement (`def g():` at the end of a file, or followed by comments
// only), which the grammar accepts and CPython rejects ("expected an
// indented block": blind sample S21K's test script, where a fix elsewhere
// in the file went unnoticed).
func (f *File) checkEmptyBlocks() {
	for _, b := range f.OfType("block") {
		empty := true
		for _, c := range b.NamedChildren() {
			if c.Type != "comment" {
				empty = false
				break
			}
		}
		if empty && len(f.Errors) == 0 {
			at := b.Start
			if b.Parent != nil {
				at = b.Parent.Start
			}
			f.reject(at, b.End, "expected an indented block")
			return
		}
	}
}

// checkNesting measures the tree's depth without recursion (the slab is in
// pre-order: a stack of where the open subtrees end) and the bracket
// nesting, and reports the file when either is past its limit. It returns
// true when the file is too deep to analyse.
func (f *File) checkNesting() bool {
	nodes, sizes := f.nodes, f.sizes
	var ends []int32
	for i := range nodes {
		for len(ends) > 0 && ends[len(ends)-1] <= int32(i) {
			ends = ends[:len(ends)-1]
		}
		if len(ends) > MaxNesting {
			f.tooDeep = true
			f.reject(nodes[i].Start, nodes[i].Start, tooDeepMessage, MaxNesting)
			return true
		}
		if sizes[i] > 1 {
			ends = append(ends, int32(i)+sizes[i])
		}
	}
	level := 0
	for i := range nodes {
		n := &nodes[i]
		if n.Named || n.Missing || len(n.Type) != 1 {
			continue
		}
		switch n.Type[0] {
		case '(', '[', '{':
			if level++; level > maxBracketLevel {
				f.reject(n.Start, n.End, "too many nested parentheses")
				return false
			}
		case ')', ']', '}':
			level--
		}
	}
	return false
}

// Python2 reports whether the file holds Python 2 only syntax (a print
// statement, backticks, `<>`...): code written for Python 2, and
// so for a PyTorch of at most 1.4, the last release that ran on it.
func (f *File) Python2() bool { return f.python2 }

// checkLegacySyntax finds Python 2 spellings: print and exec statements,
// backticks, `<>`, `raise E, msg`, integers with leading zeros or an L
// suffix, string prefixes Python 3 lacks.
func (f *File) checkLegacySyntax() {
	before := len(f.Errors)
	defer func() { f.python2 = len(f.Errors) > before }()
	for _, n := range f.OfType("print_statement") {
		// `print >> f` and `print >> f, x` are valid Python 3 expressions
		// (a shift, a tuple) that the grammar reads as print statements.
		if len(n.Children) > 1 && n.Children[1].Type == "chevron" {
			continue
		}
		f.reject(n.Start, n.End, "Python 2 print statement (print is a function in Python 3)")
	}
	for _, n := range f.OfType("exec_statement") {
		f.reject(n.Start, n.End, "Python 2 exec statement (exec is a function in Python 3)")
	}
	for _, n := range f.OfType("comparison_operator") {
		for _, c := range n.Children {
			if c.Type == "<>" && !c.Missing {
				if !strings.Contains(f.Src.text, "barry_as_FLUFL") {
					f.reject(c.Start, c.End, "'<>' is Python 2 (use !=)")
				}
			}
		}
	}
	for _, n := range f.OfType("raise_statement") {
		for _, c := range n.Children {
			if c.Type == "expression_list" {
				f.reject(n.Start, n.End, "Python 2 raise with a comma (raise E(msg) in Python 3)")
				break
			}
		}
	}
	for _, n := range f.OfType("except_clause") {
		if name := python2ExceptBinding(n); name != nil {
			f.reject(n.Start, name.End, "Python 2 `except E, name:` (Python 3: `except E as name:`)")
		}
	}
	for _, n := range f.OfType("integer") {
		if t := n.Text(); legacyInteger(t) {
			f.reject(n.Start, n.End, "leading zeros or an L suffix in an integer literal (Python 2; octal is 0o777)")
		}
	}
	for _, n := range f.OfType("string") {
		if len(n.Children) == 0 || n.Children[0].Type != "string_start" {
			continue
		}
		start := n.Children[0].Text()
		if strings.HasPrefix(start, "`") {
			f.reject(n.Start, n.End, "backticks are Python 2 (use repr())")
			continue
		}
		prefix := strings.ToLower(strings.TrimRight(start, "'\""))
		switch prefix {
		case "", "r", "u", "f", "b", "br", "rb", "fr", "rf", "t", "tr", "rt":
		default:
			f.reject(n.Start, n.End, "string prefix %q is not Python 3", prefix)
		}
	}
}

// python2ExceptBinding returns name in `except E, name:` where the
// clause's block reads name: Python 2's binding of the exception
// (`print(msg)`). Python 3.14 reads the comma as a tuple of exception
// types (PEP 758), so `except ValueError, TypeError:` whose block never
// reads the second name is left alone.
func python2ExceptBinding(clause *Node) *Node {
	var items []*Node
	var block *Node
	comma := false
	for _, c := range clause.Children {
		switch {
		case c.Type == ",":
			comma = true
		case c.Type == "block":
			block = c
		case c.Named && c.Type != "comment":
			items = append(items, c)
		}
	}
	if !comma || len(items) != 2 || block == nil || items[1].Type != "identifier" {
		return nil
	}
	name := items[1]
	read := false
	block.Walk(func(n *Node) bool {
		if n.Type == "identifier" && n.Text() == name.Text() && n.Field != "attribute" {
			read = true
		}
		return !read
	})
	if !read {
		return nil
	}
	return name
}

// legacyInteger reports whether an integer literal is Python 2 only: a
// decimal with leading zeros (0777) or a long suffix (10L).
func legacyInteger(t string) bool {
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case 'j', 'J':
		return false // an imaginary literal may have leading zeros
	case 'l', 'L':
		return true
	}
	if len(t) < 2 || t[0] != '0' || strings.ContainsRune("xXoObB", rune(t[1])) {
		return false
	}
	return strings.Trim(t, "0_") != ""
}

// checkContext finds statements outside the construct they need:
// return and yield outside a function, break and continue outside a loop.
func (f *File) checkContext() {
	for _, n := range f.OfType("return_statement") {
		if !inFunction(n, false) {
			f.reject(n.Start, n.End, "'return' outside function")
		}
	}
	for _, n := range f.OfType("yield") {
		if !inFunction(n, true) {
			f.reject(n.Start, n.End, "'yield' outside function")
		}
	}
	for _, n := range f.OfType("break_statement") {
		if !inLoop(n) {
			f.reject(n.Start, n.End, "'break' outside loop")
		}
	}
	for _, n := range f.OfType("continue_statement") {
		if !inLoop(n) {
			f.reject(n.Start, n.End, "'continue' not properly in loop")
		}
	}
}

// inFunction reports whether n runs in a function's body (a class body is
// not one); lambdas count when lambdaToo.
func inFunction(n *Node, lambdaToo bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Type {
		case "function_definition":
			return true
		case "lambda":
			if lambdaToo {
				return true
			}
		case "class_definition":
			return false
		}
	}
	return false
}

// inLoop reports whether n lies in the body of a loop of its own function
// (a loop's else clause is outside the loop).
func inLoop(n *Node) bool {
	prev := n
	for p := n.Parent; p != nil; prev, p = p, p.Parent {
		switch p.Type {
		case "for_statement", "while_statement":
			if prev.Field == "body" {
				return true
			}
		case "function_definition", "class_definition":
			return false
		}
	}
	return false
}

// checkKeywordArguments finds a keyword argument given twice in one call.
func (f *File) checkKeywordArguments() {
	for _, args := range f.OfType("argument_list") {
		var names []string
		for _, a := range args.Children {
			if a.Type != "keyword_argument" {
				continue
			}
			name := a.ChildByField("name").Text()
			if name == "async" || name == "await" {
				// `.cuda(async=True)`, PyTorch 0.3's spelling of
				// non_blocking: a keyword since Python 3.7.
				f.reject(a.Start, a.End, "%q is a keyword since Python 3.7 (cannot name an argument)", name)
			}
			for _, seen := range names {
				if seen == name && name != "" {
					f.reject(a.Start, a.End, "keyword argument repeated: %s", name)
				}
			}
			names = append(names, name)
		}
	}
}

// checkIndentation replays CPython's tokenizer on the indentation of each
// logical line (tree-sitter's scanner accepts what it rejects): a deeper
// line must follow a line ending in ':' (else "unexpected indent") and such
// a line must be followed by a deeper one ("expected an indented block"), a
// shallower one must return to an open level, a tab must mean the same
// whether tabs are 8 columns or 1 (else TabError), and blocks nest at most
// maxIndentLevel-1 deep.
func (f *File) checkIndentation() {
	src := f.Src
	cols, alts := []int{0}, []int{0}
	level, line := 0, -1 // bracket nesting; the line of the last token
	var prev *Node       // the last token before n, comments aside
	comment := -1        // where the last comment ends
	nodes := f.nodes
	for i := 0; i < len(nodes); i++ {
		n := &nodes[i]
		if n.Type == "comment" {
			comment = n.End
			continue
		}
		leaf := len(n.Children) == 0 || n.Type == "string"
		if !leaf || n.Missing || n.Start == n.End {
			continue
		}
		if n.Type == "string" {
			i += int(f.sizes[i]) - 1 // its content is not indentation
		}
		first := false // the first token of its line
		for line+1 < len(src.lineStarts) && src.lineStarts[line+1] <= n.Start {
			line++
			first = true
		}
		// prev ended on an earlier line: before this line's start (line is
		// LineOf(n.Start), and the line starts increase).
		if first && level == 0 && (prev == nil || prev.End < src.lineStarts[line]) && !continued(src, line, comment) {
			lineStart := src.lineStarts[line]
			if col, alt, ok := indentColumns(src.Bytes[lineStart:n.Start]); ok {
				if msg := indentStep(&cols, &alts, col, alt, prev); msg != "" {
					f.reject(lineStart, n.Start, "%s", msg)
					return
				}
			}
		}
		if len(n.Type) == 1 {
			switch n.Type[0] {
			case '(', '[', '{':
				level++
			case ')', ']', '}':
				level = max(level-1, 0)
			}
		}
		prev = n
	}
}

// indentStep applies one logical line's indentation to the stacks of open
// levels (in columns with tabs of 8 and of 1) and returns CPython's error
// for it, or "".
func indentStep(cols, alts *[]int, col, alt int, prev *Node) string {
	top := len(*cols) - 1
	if prev != nil && prev.Type == ":" && col <= (*cols)[top] {
		return "expected an indented block"
	}
	switch {
	case col == (*cols)[top]:
		if alt != (*alts)[top] {
			return "inconsistent use of tabs and spaces in indentation"
		}
	case col > (*cols)[top]:
		if prev == nil || prev.Type != ":" {
			return "unexpected indent"
		}
		if len(*cols) >= maxIndentLevel {
			return "too many levels of indentation"
		}
		if alt <= (*alts)[top] {
			return "inconsistent use of tabs and spaces in indentation"
		}
		*cols, *alts = append(*cols, col), append(*alts, alt)
	default:
		for len(*cols) > 1 && col < (*cols)[len(*cols)-1] {
			*cols, *alts = (*cols)[:len(*cols)-1], (*alts)[:len(*alts)-1]
		}
		top = len(*cols) - 1
		if col != (*cols)[top] {
			return "unindent does not match any outer indentation level"
		}
		if alt != (*alts)[top] {
			return "inconsistent use of tabs and spaces in indentation"
		}
	}
	return ""
}

// continued reports whether the line before line ends in a backslash, which
// joins the two into one logical line (not one at the end of a comment,
// which ends at comment).
func continued(src *Source, line, comment int) bool {
	if line == 0 || comment == src.LineEnd(line-1) {
		return false
	}
	prev := strings.TrimRight(src.Text(src.LineStart(line-1), src.LineEnd(line-1)), " \t")
	return strings.HasSuffix(prev, "\\")
}

// indentColumns measures indentation as CPython's tokenizer does: with tabs
// every tabSize columns, and with tabs one column wide. ok is false when
// something other than blanks precedes the token (a BOM, a string's end).
func indentColumns(ws []byte) (col, alt int, ok bool) {
	for _, c := range ws {
		switch c {
		case ' ':
			col, alt = col+1, alt+1
		case '\t':
			col, alt = (col/tabSize+1)*tabSize, alt+1
		case '\f':
			col, alt = 0, 0
		default:
			return 0, 0, false
		}
	}
	return col, alt, true
}

// forgiveAnnotationGaps drops the ERROR nodes the pinned grammar leaves
// after a subscripted annotation that goes on as an expression:
// `index: NDArray[int] or int`, `-> A[int] if c else B`. CPython accepts
// any expression there; the grammar reads `NDArray[int]` as a generic type
// and cannot continue it (blind sample S35T's false E999). Such an ERROR
// is forgiven only when the annotation and the error's text, parsed alone
// as a parenthesized expression, are clean.
func (f *File) forgiveAnnotationGaps() {
	kept := f.Errors[:0]
	for _, e := range f.Errors {
		if !f.annotationGap(e) {
			kept = append(kept, e)
		}
	}
	clear(f.Errors[len(kept):])
	f.Errors = kept
}

// annotationGap reports whether the ERROR node e continues the
// subscripted annotation just before it (see forgiveAnnotationGaps).
func (f *File) annotationGap(e *Node) bool {
	if e.Type != "ERROR" || e.Parent == nil || len(e.Children) == 0 {
		return false
	}
	switch e.Children[0].Text() {
	case "or", "and", "if":
	default:
		return false
	}
	var prev *Node
	for _, c := range e.Parent.Children {
		if c == e {
			break
		}
		prev = c
	}
	if prev != nil && (prev.Type == "typed_parameter" || prev.Type == "typed_default_parameter") && len(prev.Children) > 0 {
		prev = prev.Children[len(prev.Children)-1]
	}
	if prev == nil || prev.Type != "type" || len(prev.Children) != 1 || prev.Children[0].Type != "generic_type" {
		return false
	}
	return cleanExpression(f.Src.Bytes[prev.Start:e.End])
}

// cleanExpression reports whether text parses, alone and in parentheses,
// as a Python expression without errors.
func cleanExpression(text []byte) bool {
	src := append(append([]byte("("), text...), ")\n"...)
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(python.GetLanguage())
	tree, err := parser.ParseCtx(context.Background(), nil, src)
	if err != nil || tree == nil {
		return false
	}
	defer tree.Close()
	return !tree.RootNode().HasError()
}
