// Package notebook lets the engine check and fix Jupyter notebooks
// (nbformat 4) as it does Python files.
//
// Parse reads an .ipynb file and keeps its raw bytes. Build concatenates
// the code cells, in order, into one module (so an import in cell 1
// resolves a call in cell 7), with IPython syntax (%magic, !shell, ?help,
// %%cell magics) replaced by placeholder lines that are never rewritten
// (ipython.go); a cell that does not parse on its own is left out, as
// IPython would fail it alone. A Module maps every byte position of that module back to
// its cell, line and column, admits only fixes whose edits each stay in one
// cell, moves "top of the module" insertions into the first code cell after
// its imports, and applies edits cell by cell.
//
// Render writes a notebook back with new cell sources by splicing each
// changed "source" value into the original bytes, encoded the way Jupyter
// writes it (a list of lines, non-ASCII kept raw): indentation, key order,
// outputs, metadata and everything else stay byte for byte, and a notebook
// with no change is returned as it was read.
package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Cell is one cell of a notebook.
type Cell struct {
	Kind   string // "code", "markdown" or "raw"
	Source string
	// Index is the cell's position among the file's cells (0-based), -1
	// for a cell gpuopt adds.
	Index int
}

// Notebook is an .ipynb file as read: its cells and where each cell's
// source lies in the raw bytes.
type Notebook struct {
	Path  string
	Raw   []byte
	Cells []Cell
	// Minor is nbformat_minor: from 4.5 on, cells carry an id.
	Minor int

	layouts     []cellLayout
	indent      string // the file's indentation unit ("" when minified)
	ensureASCII bool   // non-ASCII is written as \uXXXX escapes
	ids         map[string]bool
}

// cellLayout is where one cell lies in the raw bytes.
type cellLayout struct {
	obj     span     // the cell object
	keys    []span   // its keys, in order (quotes included)
	src     span     // the source value
	srcList bool     // the source is a list of lines (else one string)
	elems   []span   // the list's items
	lines   []string // their values
}

type span struct{ start, end int }

// ErrNotPython is returned for notebooks whose kernel runs another
// language.
var ErrNotPython = errors.New("not a Python notebook")

// Parse reads an nbformat 4 notebook. Notebooks of another major version
// or another kernel language (ErrNotPython) are errors. Keys are matched
// exactly, and a repeated key's last value counts, as in Python's json
// (Jupyter's reader): what gpuopt analyses is what it would rewrite.
func Parse(path string, raw []byte) (*Notebook, error) {
	if !json.Valid(raw) {
		var v any
		err := json.Unmarshal(raw, &v)
		return nil, fmt.Errorf("not a notebook (invalid JSON: %v)", err)
	}
	s := scanner{raw}
	i := s.ws(0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, errors.New("not a notebook (not a JSON object)")
	}
	top := map[string]span{}
	s.object(i, func(key string, _ span, v span) { top[key] = v })
	cellsAt, hasCells := top["cells"]
	formatAt, hasFormat := top["nbformat"]
	if !hasCells || !hasFormat || raw[cellsAt.start] != '[' {
		return nil, errors.New("not a notebook (no nbformat or cells)")
	}
	var major int
	if err := json.Unmarshal(raw[formatAt.start:formatAt.end], &major); err != nil {
		return nil, errors.New("not a notebook (nbformat is not a number)")
	}
	if major != 4 {
		return nil, fmt.Errorf("nbformat %d notebooks are not supported (only nbformat 4)", major)
	}
	nb := &Notebook{Path: path, Raw: raw, ids: map[string]bool{}}
	if m, ok := top["nbformat_minor"]; ok {
		json.Unmarshal(raw[m.start:m.end], &nb.Minor)
	}
	if m, ok := top["metadata"]; ok {
		if lang := kernelLanguage(raw[m.start:m.end]); lang != "" && lang != "python" && lang != "python3" {
			return nil, fmt.Errorf("%w (kernel language %s)", ErrNotPython, lang)
		}
	}
	var err error
	s.array(cellsAt.start, func(c span) {
		if err != nil {
			return
		}
		if raw[c.start] != '{' {
			err = fmt.Errorf("not a notebook (cell %d is not an object)", len(nb.Cells)+1)
			return
		}
		l := cellLayout{obj: c, src: span{-1, -1}}
		var kind, id string
		s.object(c.start, func(key string, k span, v span) {
			l.keys = append(l.keys, k)
			switch key {
			case "cell_type":
				kind = ""
				json.Unmarshal(raw[v.start:v.end], &kind)
			case "id":
				id = ""
				json.Unmarshal(raw[v.start:v.end], &id)
			case "source":
				l.src, l.srcList, l.elems = v, raw[v.start] == '[', nil
				if l.srcList {
					s.array(v.start, func(e span) { l.elems = append(l.elems, e) })
				}
			}
		})
		src, lines, serr := decodeSource(raw, l)
		if serr != nil {
			err = fmt.Errorf("cell %d: %v", len(nb.Cells)+1, serr)
			return
		}
		l.lines = lines
		nb.Cells = append(nb.Cells, Cell{Kind: kind, Source: src, Index: len(nb.Cells)})
		nb.layouts = append(nb.layouts, l)
		if id != "" {
			nb.ids[id] = true
		}
	})
	if err != nil {
		return nil, err
	}
	nb.indent = detectIndent(raw)
	nb.ensureASCII = usesASCIIEscapes(raw)
	return nb, nil
}

// kernelLanguage reads the notebook's language from its metadata
// (kernelspec.language, else language_info.name), lower-case.
func kernelLanguage(metadata []byte) string {
	var md struct {
		Kernelspec struct {
			Language string `json:"language"`
		} `json:"kernelspec"`
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	}
	json.Unmarshal(metadata, &md)
	if md.Kernelspec.Language != "" {
		return strings.ToLower(md.Kernelspec.Language)
	}
	return strings.ToLower(md.LanguageInfo.Name)
}

// decodeSource decodes a cell's source value: a string, or a list of
// strings (whose items it also returns).
func decodeSource(raw []byte, l cellLayout) (string, []string, error) {
	if l.src.start < 0 || string(raw[l.src.start:l.src.end]) == "null" {
		return "", nil, nil
	}
	bad := errors.New(`"source" is neither a string nor a list of strings`)
	if !l.srcList {
		var s string
		if raw[l.src.start] != '"' || json.Unmarshal(raw[l.src.start:l.src.end], &s) != nil {
			return "", nil, bad
		}
		return s, nil, nil
	}
	lines := make([]string, len(l.elems))
	for i, e := range l.elems {
		if raw[e.start] != '"' || json.Unmarshal(raw[e.start:e.end], &lines[i]) != nil {
			return "", nil, bad
		}
	}
	return strings.Join(lines, ""), lines, nil
}

// detectIndent returns the whitespace before the top-level object's first
// key when it starts a line: the file's indentation unit.
func detectIndent(raw []byte) string {
	i := bytes.IndexByte(raw, '{')
	if i < 0 {
		return ""
	}
	rest := raw[i+1:]
	j := 0
	for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\r' || rest[j] == '\n') {
		j++
	}
	ws := string(rest[:j])
	if k := strings.LastIndexByte(ws, '\n'); k >= 0 {
		return ws[k+1:]
	}
	return ""
}

// usesASCIIEscapes reports a file written with ensure_ascii: no raw
// non-ASCII byte, but \u escapes of non-ASCII characters.
func usesASCIIEscapes(raw []byte) bool {
	for _, c := range raw {
		if c >= 0x80 {
			return false
		}
	}
	for i := 0; i+6 <= len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] == 'u' {
			if v, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 32); err == nil && v >= 0x80 {
				return true
			}
		}
		i++ // skip the escaped character (the u of \\u is not an escape)
	}
	return false
}

// CellNumber is the 1-based number of the cell at index i, as output
// prints it ("cell 3"): cells are counted from the top of the notebook,
// markdown cells included, as Jupyter, VS Code and ruff count them.
func CellNumber(index int) int { return index + 1 }

// RawLine returns the 1-based line of the .ipynb file that holds the
// given 0-based line of cell index's source (its own item of the source
// list, in the way Jupyter writes notebooks), for formats that point into
// the file itself (SARIF, GitHub annotations).
func (nb *Notebook) RawLine(index, line int) int {
	if index < 0 || index >= len(nb.layouts) {
		return 1
	}
	l := nb.layouts[index]
	at := l.src.start
	if l.srcList && line < len(l.elems) {
		at = l.elems[line].start
	} else if l.srcList && len(l.elems) > 0 {
		at = l.elems[len(l.elems)-1].start
	}
	if at < 0 {
		at = l.obj.start
	}
	return bytes.Count(nb.Raw[:at], []byte("\n")) + 1
}

// scanner walks valid JSON and reports byte spans.
type scanner struct{ b []byte }

func (s scanner) ws(i int) int {
	for i < len(s.b) && (s.b[i] == ' ' || s.b[i] == '\t' || s.b[i] == '\n' || s.b[i] == '\r') {
		i++
	}
	return i
}

// str returns the end of the string starting at i (after its quote).
func (s scanner) str(i int) int {
	for i++; i < len(s.b); i++ {
		switch s.b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s.b)
}

// value returns the end of the value starting at i.
func (s scanner) value(i int) int {
	if i >= len(s.b) {
		return i
	}
	switch s.b[i] {
	case '"':
		return s.str(i)
	case '{', '[':
		depth := 0
		for ; i < len(s.b); i++ {
			switch s.b[i] {
			case '"':
				i = s.str(i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(s.b)
	}
	for i < len(s.b) && !strings.ContainsRune(",]} \t\r\n", rune(s.b[i])) {
		i++
	}
	return i
}

// object calls f for each member of the object starting at i.
func (s scanner) object(i int, f func(key string, k, v span)) {
	i = s.ws(i + 1)
	for i < len(s.b) && s.b[i] == '"' {
		kend := s.str(i)
		var key string
		json.Unmarshal(s.b[i:kend], &key)
		j := s.ws(kend)
		if j < len(s.b) && s.b[j] == ':' {
			j = s.ws(j + 1)
		}
		vend := s.value(j)
		f(key, span{i, kend}, span{j, vend})
		i = s.ws(vend)
		if i < len(s.b) && s.b[i] == ',' {
			i = s.ws(i + 1)
		}
	}
}

// array calls f for each item of the array starting at i.
func (s scanner) array(i int, f func(v span)) {
	i = s.ws(i + 1)
	for i < len(s.b) && s.b[i] != ']' {
		end := s.value(i)
		f(span{i, end})
		i = s.ws(end)
		if i < len(s.b) && s.b[i] == ',' {
			i = s.ws(i + 1)
		}
	}
}
