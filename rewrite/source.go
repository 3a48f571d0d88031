// Package rewrite is gpuopt's engine: it parses Python with tree-sitter into
// a plain Go syntax tree, builds a semantic model over it (qualified names,
// scopes, bindings, loops), represents findings and their fixes as byte-range
// edits, and applies fixes to a fixed point without ever adding a syntax
// error. It knows nothing of rules or editors: patterns/ supplies the rules,
// cmd/ and lsp/ present the results.
package rewrite

import (
	"bytes"
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// Source is a file's bytes with the indexes every front end needs: line
// starts, the file's line ending and its indentation unit.
type Source struct {
	Path       string
	Bytes      []byte
	text       string // Bytes as a string, so that Text does not allocate
	lineStarts []int
	// LineEnding is "\r\n" when the file's first line ends that way, else "\n".
	LineEnding string
	// IndentUnit is the file's first indentation step ("    ", "\t", "  ").
	IndentUnit string
}

// NewSource indexes b. It keeps b as Bytes and a string copy of it for
// Text: b must not change afterwards.
func NewSource(path string, b []byte) *Source {
	s := &Source{Path: path, Bytes: b, text: string(b), LineEnding: "\n", IndentUnit: "    "}
	s.lineStarts = make([]int, 1, bytes.Count(b, []byte("\n"))+1)
	for i, c := range b {
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		s.LineEnding = "\r\n"
	}
	s.IndentUnit = detectIndent(b)
	return s
}

// detectIndent returns the leading whitespace of the first indented line
// that follows a line ending in ':' — the file's indentation step.
func detectIndent(b []byte) string {
	prevColon := false
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimRight(line, "\r")
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		if prevColon && len(trimmed) < len(line) {
			return string(line[:len(line)-len(trimmed)])
		}
		prevColon = bytes.HasSuffix(bytes.TrimRight(trimmed, " \t"), []byte(":"))
	}
	return "    "
}

// LineCount is the number of lines (a final line without newline counts).
func (s *Source) LineCount() int { return len(s.lineStarts) }

// LineOf returns the 0-based line containing byte offset off.
func (s *Source) LineOf(off int) int {
	return sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > off }) - 1
}

// LineStart returns the byte offset where 0-based line starts.
func (s *Source) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(s.lineStarts) {
		return len(s.Bytes)
	}
	return s.lineStarts[line]
}

// LineEnd returns the offset of the end of the line's content (before its
// line terminator).
func (s *Source) LineEnd(line int) int {
	end := len(s.Bytes)
	if line+1 < len(s.lineStarts) {
		end = s.lineStarts[line+1] - 1
		if end > 0 && s.Bytes[end-1] == '\r' {
			end--
		}
	}
	return end
}

// LineText returns the content of a 0-based line without its terminator.
func (s *Source) LineText(line int) string {
	return string(s.Bytes[s.LineStart(line):s.LineEnd(line)])
}

// Position converts a byte offset to a 0-based line and a 0-based column in
// characters (Unicode code points), as CLI output and JSON report them.
func (s *Source) Position(off int) (line, col int) {
	line = s.LineOf(off)
	return line, utf8.RuneCount(s.Bytes[s.lineStarts[line]:off])
}

// UTF16Position converts a byte offset to a 0-based line and a UTF-16 code
// unit column, the unit LSP positions use.
func (s *Source) UTF16Position(off int) (line, col int) {
	line = s.LineOf(off)
	for _, r := range string(s.Bytes[s.lineStarts[line]:off]) {
		col += utf16.RuneLen(r)
	}
	return line, col
}

// OffsetFromUTF16 converts an LSP position back to a byte offset. Columns
// beyond the end of the line clamp to the line end.
func (s *Source) OffsetFromUTF16(line, col int) int {
	if line >= len(s.lineStarts) {
		return len(s.Bytes)
	}
	start, end := s.LineStart(line), s.LineEnd(line)
	off, units := start, 0
	for off < end && units < col {
		r, size := utf8.DecodeRune(s.Bytes[off:end])
		units += utf16.RuneLen(r)
		off += size
	}
	return off
}

// IndentOf returns the leading whitespace of the line containing off.
func (s *Source) IndentOf(off int) string {
	line := s.LineOf(off)
	start := s.LineStart(line)
	end := start
	for end < len(s.Bytes) && (s.Bytes[end] == ' ' || s.Bytes[end] == '\t') {
		end++
	}
	return string(s.Bytes[start:end])
}

// Text returns the bytes [start, end) as a string, without allocating
// (a Source built without NewSource falls back to a copy).
func (s *Source) Text(start, end int) string {
	if len(s.text) != len(s.Bytes) {
		return string(s.Bytes[start:end])
	}
	return s.text[start:end]
}
