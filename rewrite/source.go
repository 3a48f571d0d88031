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
	"sync"
	"unicode/utf8"
)

// Source is a file's bytes with the indexes every front end needs: line
// starts, the file's line ending and its indentation unit.
type Source struct {
	Path       string
	Bytes      []byte
	text       string // Bytes as a string, so that Text does not allocate
	lineStarts []int
	// LineEnding is how the file's first line ends: "\r\n", "\r" or
	// (also when it has one line) "\n".
	LineEnding string
	// IndentUnit is the file's first indentation step ("    ", "\t", "  ").
	IndentUnit string
	// BOM is the length of a UTF-8 byte order mark the file starts with
	// (3), or 0. It stays in Bytes, so that a rewrite keeps it, but it is
	// not a column: Position counts characters after it.
	BOM int
	// ascii is true when every byte is ASCII: a column is then a byte
	// count. Otherwise counts holds, per block of countBlock bytes, the
	// characters and UTF-16 units before it (built on first use), so that
	// converting an offset scans at most one block, however long its line.
	ascii      bool
	invalid    bool // not UTF-8: columns count each bad byte, line by line
	countsOnce sync.Once
	counts     []blockCount
}

// countBlock is the stride of Source.counts.
const countBlock = 64

// blockCount is what precedes a block: characters (code points) and
// UTF-16 code units.
type blockCount struct{ runes, units int32 }

// NewSource indexes b. It keeps b as Bytes and a string copy of it for
// Text: b must not change afterwards.
func NewSource(path string, b []byte) *Source {
	s := &Source{Path: path, Bytes: b, text: string(b), LineEnding: "\n", IndentUnit: "    "}
	s.lineStarts = make([]int, 1, bytes.Count(b, []byte("\n"))+1)
	var high byte
	for i, c := range b {
		high |= c
		// A line ends at \n, \r\n or a lone \r, as CPython and LSP read it.
		if c == '\n' || c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	s.ascii = high < utf8.RuneSelf
	s.invalid = !s.ascii && !utf8.Valid(b)
	if bytes.HasPrefix(b, []byte("\ufeff")) {
		s.BOM = 3
	}
	if len(s.lineStarts) > 1 {
		switch end := s.lineStarts[1]; {
		case b[end-1] == '\r':
			s.LineEnding = "\r"
		case end > 1 && b[end-2] == '\r':
			s.LineEnding = "\r\n"
		}
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
	if line+1 >= len(s.lineStarts) {
		return len(s.Bytes)
	}
	start, end := s.lineStarts[line], s.lineStarts[line+1]
	if s.Bytes[end-1] == '\n' {
		end--
	}
	if end > start && s.Bytes[end-1] == '\r' {
		end--
	}
	return end
}

// LineText returns the content of a 0-based line without its terminator.
func (s *Source) LineText(line int) string {
	return string(s.Bytes[s.LineStart(line):s.LineEnd(line)])
}

// Position converts a byte offset to a 0-based line and a 0-based column in
// characters (Unicode code points), as CLI output and JSON report them. A
// byte order mark is not a character of the first line.
func (s *Source) Position(off int) (line, col int) {
	line = s.LineOf(off)
	start := s.lineStarts[line]
	if line == 0 && off >= s.BOM {
		start = s.BOM
	}
	if s.ascii {
		return line, off - start
	}
	if s.invalid {
		return line, utf8.RuneCount(s.Bytes[start:off])
	}
	r, _ := s.countsAt(off)
	r0, _ := s.countsAt(start)
	return line, r - r0
}

// UTF16Position converts a byte offset to a 0-based line and a UTF-16 code
// unit column, the unit LSP positions use. A byte order mark counts: a
// client that sent it has it in its text.
func (s *Source) UTF16Position(off int) (line, col int) {
	line = s.LineOf(off)
	start := s.lineStarts[line]
	if s.ascii {
		return line, off - start
	}
	if s.invalid {
		for _, r := range string(s.Bytes[start:off]) {
			col += unitsOf(r)
		}
		return line, col
	}
	_, u := s.countsAt(off)
	_, u0 := s.countsAt(start)
	return line, u - u0
}

// OffsetFromUTF16 converts an LSP position back to a byte offset. Columns
// beyond the end of the line clamp to the line end.
func (s *Source) OffsetFromUTF16(line, col int) int {
	if line < 0 {
		return 0
	}
	if line >= len(s.lineStarts) {
		return len(s.Bytes)
	}
	start, end := s.LineStart(line), s.LineEnd(line)
	if col <= 0 {
		return start
	}
	if s.ascii {
		return min(start+col, end)
	}
	if s.invalid {
		off, units := start, 0
		for off < end && units < col {
			r, size := utf8.DecodeRune(s.Bytes[off:end])
			units += unitsOf(r)
			off += size
		}
		return off
	}
	// Jump to the last block boundary at or before the target, then walk.
	_, u0 := s.countsAt(start)
	want := u0 + col
	s.countsOnce.Do(s.buildCounts)
	lo, hi := start/countBlock+1, end/countBlock+1 // blocks starting in (start, end]
	k := lo + sort.Search(hi-lo, func(i int) bool { return int(s.counts[lo+i].units) > want }) - 1
	off, units := start, u0
	if k >= lo {
		off = k * countBlock
		for off < len(s.Bytes) && !utf8.RuneStart(s.Bytes[off]) {
			off++ // the block starts inside a character
		}
		_, units = s.countsAt(off)
	}
	for off < end && units < want {
		r, size := utf8.DecodeRune(s.Bytes[off:end])
		units += unitsOf(r)
		off += size
	}
	return off
}

// countsAt returns the characters and UTF-16 units before off.
func (s *Source) countsAt(off int) (runes, units int) {
	s.countsOnce.Do(s.buildCounts)
	k := off / countBlock
	c := s.counts[k]
	runes, units = int(c.runes), int(c.units)
	for _, b := range s.Bytes[k*countBlock : off] {
		if utf8.RuneStart(b) {
			runes++
			units++
			if b >= 0xF0 {
				units++ // outside the BMP: a surrogate pair
			}
		}
	}
	return runes, units
}

// buildCounts fills counts: one pass over the file.
func (s *Source) buildCounts() {
	s.counts = make([]blockCount, len(s.Bytes)/countBlock+1)
	var c blockCount
	for i, b := range s.Bytes {
		if i%countBlock == 0 {
			s.counts[i/countBlock] = c
		}
		if utf8.RuneStart(b) {
			c.runes++
			c.units++
			if b >= 0xF0 {
				c.units++
			}
		}
	}
	if len(s.Bytes)%countBlock == 0 {
		s.counts[len(s.Bytes)/countBlock] = c
	}
}

// unitsOf is the number of UTF-16 code units of r (an invalid byte,
// decoded as U+FFFD, is one).
func unitsOf(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
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

// RestOfLine returns the text from off to the end of its line, the line
// ending excluded; "" when off is at or past that end: a comment token of
// a CRLF file ends after the line's '\r' (tree-sitter's comment takes it).
func (s *Source) RestOfLine(off int) string {
	end := s.LineEnd(s.LineOf(off))
	if off >= end {
		return ""
	}
	return s.Text(off, end)
}

// Text returns the bytes [start, end) as a string, without allocating
// (a Source built without NewSource falls back to a copy).
func (s *Source) Text(start, end int) string {
	if len(s.text) != len(s.Bytes) {
		return string(s.Bytes[start:end])
	}
	return s.text[start:end]
}
