package rewrite

import "strings"

// Statements returns the statements of a block or module (no comments).
func Statements(block *Node) []*Node {
	if block == nil {
		return nil
	}
	return block.NamedChildren()
}

// Statement returns the simple or compound statement that contains n: the
// ancestor (or n itself) whose parent is a block or the module.
func Statement(n *Node) *Node {
	for ; n != nil && n.Parent != nil; n = n.Parent {
		if n.Parent.Is("block", "module") {
			return n
		}
	}
	return nil
}

// Unreachable reports a node that no execution reaches: its statement,
// or a statement around it in its function, follows a `return`, `raise`,
// `continue` or `break` of the same block (`def test(): return` left at
// the top of a function whose old body stays below it).
func Unreachable(n *Node) bool {
	for st := Statement(n); st != nil && st.Parent != nil; st = Statement(st.Parent) {
		for _, prev := range st.Parent.Children { // (not NamedChildren: no slice per finding in a block of thousands)
			if prev == st {
				break
			}
			if prev.Named && prev.Is("return_statement", "raise_statement", "continue_statement", "break_statement") {
				return true
			}
			if prev.Type == "expression_statement" && exitCall(prev) {
				return true // `sys.exit()` above it in the block (blind sample S38AF's faster_rcnn main.py)
			}
		}
		if st.Parent.Type == "module" || IsDefOrLambda(st) {
			return false
		}
		if st.Parent.Parent != nil && IsDefOrLambda(st.Parent.Parent) {
			return false // the function's own body: its callers are another question
		}
	}
	return false
}

// exitCall reports an expression statement that is a call of sys.exit,
// exit, quit or os._exit: the process ends there.
func exitCall(st *Node) bool {
	kids := st.NamedChildren()
	if len(kids) != 1 || kids[0].Type != "call" {
		return false
	}
	switch kids[0].ChildByField("function").Text() {
	case "sys.exit", "exit", "quit", "os._exit":
		return true
	}
	return false
}

// ownsLines reports whether stmt starts its line and only a comment (or
// nothing) follows it on its last line: no `a; b` on the same line.
func ownsLines(stmt *Node) bool {
	src := stmt.file.Src
	first := src.LineOf(stmt.Start)
	if strings.TrimSpace(src.Text(src.LineStart(first), stmt.Start)) != "" {
		return false
	}
	after := strings.TrimSpace(src.RestOfLine(stmt.End))
	return after == "" || strings.HasPrefix(after, "#")
}

// RemoveStatementEdit returns the edit that deletes a statement: its lines
// (a trailing comment on its last line stays, on its own line) when the block keeps other
// statements, `pass` in its place when it is the block's only statement.
// ok is false when the statement shares a line with another one.
func RemoveStatementEdit(stmt *Node) (Edit, bool) {
	if stmt == nil || stmt.Parent == nil || !stmt.Parent.Is("block", "module") {
		return Edit{}, false
	}
	if stmt.Parent.Type == "block" && len(Statements(stmt.Parent)) == 1 {
		return Edit{Start: stmt.Start, End: stmt.End, New: "pass"}, true
	}
	if !ownsLines(stmt) {
		return Edit{}, false
	}
	src := stmt.file.Src
	first, last := src.LineOf(stmt.Start), src.LineOf(stmt.End)
	return KeepTrailingComment(stmt, Edit{Start: src.LineStart(first), End: src.LineStart(last + 1)}), true
}

// InsertBeforeEdit returns the edit that inserts line (without indentation
// or terminator) on its own line before stmt, indented like stmt. ok is
// false when stmt does not start its line.
func InsertBeforeEdit(stmt *Node, line string) (Edit, bool) {
	if stmt == nil || !ownsLines(stmt) {
		return Edit{}, false
	}
	src := stmt.file.Src
	at := src.LineStart(src.LineOf(stmt.Start))
	return Edit{Start: at, End: at, New: src.IndentOf(stmt.Start) + line + src.LineEnding}, true
}

// InsertAfterEdit returns the edit that inserts line on its own line after
// stmt, indented like stmt.
func InsertAfterEdit(stmt *Node, line string) (Edit, bool) {
	if stmt == nil || !ownsLines(stmt) {
		return Edit{}, false
	}
	src := stmt.file.Src
	end := src.LineEnd(src.LineOf(stmt.End))
	return Edit{Start: end, End: end, New: src.LineEnding + src.IndentOf(stmt.Start) + line}, true
}

// WrapStatementEdit returns the edit that puts stmt inside a new compound
// statement opened by header ("with torch.inference_mode():"): the header
// takes stmt's indentation and every line of stmt gains one indentation
// unit of the file. Blank lines and lines that begin inside a multi-line
// string literal are left alone. ok is false when stmt shares a line with
// another statement.
func WrapStatementEdit(stmt *Node, header string) (Edit, bool) {
	if stmt == nil || !stmt.Parent.Is("block", "module") || !ownsLines(stmt) {
		return Edit{}, false
	}
	src := stmt.file.Src
	first, last := src.LineOf(stmt.Start), src.LineOf(stmt.End)
	inString := map[int]bool{}
	stmt.Walk(func(n *Node) bool {
		if n.Type == "string" {
			for l := src.LineOf(n.Start) + 1; l <= src.LineOf(n.End); l++ {
				inString[l] = true
			}
			return false
		}
		return true
	})
	start := src.LineStart(first)
	unit := src.IndentUnit
	var sb strings.Builder
	sb.WriteString(src.IndentOf(stmt.Start) + header + src.LineEnding)
	for l := first; l <= last; l++ {
		ls, le := src.LineStart(l), src.LineEnd(l)
		end := src.LineStart(l + 1)
		if l == last {
			end = stmt.End
			if le > end {
				le = end
			}
		}
		if !inString[l] && strings.TrimSpace(src.Text(ls, le)) != "" {
			sb.WriteString(unit)
		}
		sb.WriteString(src.Text(ls, end))
	}
	return Edit{Start: start, End: stmt.End, New: sb.String()}, true
}
