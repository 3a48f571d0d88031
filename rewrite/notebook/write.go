package notebook

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf16"
)

// Render returns the notebook's bytes with cells' sources: each cell read
// from the file (Index ≥ 0) whose source changed has its "source" value
// re-encoded in place, in the shape it had (a list of lines or a string);
// cells gpuopt adds (Index -1) are inserted before the file's first code
// cell, laid out like the file's cells. Every other byte is kept: with no
// change the result is the file as read.
func (nb *Notebook) Render(cells []Cell) ([]byte, error) {
	type splice struct {
		at, end int
		text    string
	}
	var splices []splice
	var added []Cell
	for _, c := range cells {
		if c.Index < 0 {
			added = append(added, c)
			continue
		}
		if c.Index >= len(nb.Cells) {
			return nil, fmt.Errorf("notebook: no cell %d", c.Index)
		}
		old := nb.Cells[c.Index]
		if c.Source == old.Source {
			continue
		}
		l := nb.layouts[c.Index]
		if l.src.start < 0 {
			return nil, fmt.Errorf("notebook: cell %d has no source", CellNumber(c.Index))
		}
		splices = append(splices, splice{l.src.start, l.src.end, nb.encodeSource(l, old.Source, c.Source)})
	}
	if len(added) > 0 {
		first := -1
		for i, c := range nb.Cells {
			if c.Kind == "code" {
				first = i
				break
			}
		}
		if first < 0 {
			return nil, errors.New("notebook: no code cell to put a new cell before")
		}
		l := nb.layouts[first]
		// The whitespace before the first code cell ("\n  ") goes after each
		// new cell too.
		i := l.obj.start
		for i > 0 && isSpace(nb.Raw[i-1]) {
			i--
		}
		ws := string(nb.Raw[i:l.obj.start])
		var sb strings.Builder
		for _, c := range added {
			sb.WriteString(nb.newCell(first, c.Source))
			sb.WriteString(",")
			sb.WriteString(ws)
		}
		splices = append(splices, splice{l.obj.start, l.obj.start, sb.String()})
	}
	if len(splices) == 0 {
		return nb.Raw, nil
	}
	sort.Slice(splices, func(i, j int) bool { return splices[i].at < splices[j].at })
	var out bytes.Buffer
	pos := 0
	for _, s := range splices {
		out.Write(nb.Raw[pos:s.at])
		out.WriteString(s.text)
		pos = s.end
	}
	out.Write(nb.Raw[pos:])
	return out.Bytes(), nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// splitLines splits a source into Jupyter's list of lines: each ends with
// "\n" but the last.
func splitLines(src string) []string {
	if src == "" {
		return nil
	}
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// encodeSource encodes a cell's new source in the shape of its old one,
// reusing the raw bytes of the lines that did not change.
func (nb *Notebook) encodeSource(l cellLayout, old, src string) string {
	if !l.srcList {
		return nb.quote(src)
	}
	lines := splitLines(src)
	if len(lines) == 0 {
		return "[]"
	}
	oldLines := splitLines(old)
	raw := make([]string, len(lines))
	if slices.Equal(oldLines, l.lines) {
		// Keep the items of the unchanged first and last lines as written.
		p := 0
		for p < len(lines) && p < len(oldLines) && lines[p] == oldLines[p] {
			raw[p] = string(nb.Raw[l.elems[p].start:l.elems[p].end])
			p++
		}
		for s := 1; s <= len(lines)-p && s <= len(oldLines)-p && lines[len(lines)-s] == oldLines[len(oldLines)-s]; s++ {
			e := l.elems[len(oldLines)-s]
			raw[len(lines)-s] = string(nb.Raw[e.start:e.end])
		}
	}
	open, sep, close := nb.listLayout(l)
	var sb strings.Builder
	sb.WriteString("[")
	sb.WriteString(open)
	for i, line := range lines {
		if i > 0 {
			sb.WriteString(sep)
		}
		if raw[i] == "" {
			raw[i] = nb.quote(line)
		}
		sb.WriteString(raw[i])
	}
	sb.WriteString(close)
	sb.WriteString("]")
	return sb.String()
}

// listLayout returns the whitespace of a source list: after "[", between
// items (comma included) and before "]", from the list itself where it
// has items, else from the line of its key and the file's indentation.
func (nb *Notebook) listLayout(l cellLayout) (open, sep, close string) {
	if len(l.elems) > 0 {
		open = string(nb.Raw[l.src.start+1 : l.elems[0].start])
		close = string(nb.Raw[l.elems[len(l.elems)-1].end : l.src.end-1])
		sep = "," + open
		if len(l.elems) > 1 {
			sep = string(nb.Raw[l.elems[0].end:l.elems[1].start])
		}
		return open, sep, close
	}
	if nb.indent == "" && !bytes.Contains(nb.Raw, []byte("\n")) {
		return "", ",", ""
	}
	key := lineIndent(nb.Raw, l.src.start)
	return "\n" + key + nb.indent, ",\n" + key + nb.indent, "\n" + key
}

// lineIndent returns the whitespace that starts the line holding offset at.
func lineIndent(raw []byte, at int) string {
	start := bytes.LastIndexByte(raw[:at], '\n') + 1
	end := start
	for end < len(raw) && (raw[end] == ' ' || raw[end] == '\t') {
		end++
	}
	return string(raw[start:end])
}

// newCell returns a new code cell's JSON laid out like the file's cell at
// index like: its indentation, key order and separators; an id when the
// notebook is nbformat 4.5 or later.
func (nb *Notebook) newCell(like int, src string) string {
	l := nb.layouts[like]
	raw := nb.Raw
	memberWS, closeWS, colon := "", "", ": "
	if len(l.keys) > 0 {
		memberWS = string(raw[l.obj.start+1 : l.keys[0].start])
		k := l.keys[0]
		j := k.end
		for j < len(raw) && raw[j] != ':' {
			j++
		}
		j++
		v := j
		for v < len(raw) && isSpace(raw[v]) {
			v++
		}
		colon = string(raw[k.end:v])
		e := l.obj.end - 1
		for e > l.obj.start && isSpace(raw[e-1]) {
			e--
		}
		closeWS = string(raw[e : l.obj.end-1])
	}
	values := map[string]string{
		"cell_type":       `"code"`,
		"execution_count": "null",
		"metadata":        "{}",
		"outputs":         "[]",
	}
	if nb.Minor >= 5 {
		values["id"] = `"` + nb.newID(src) + `"`
	}
	var order []string
	for _, k := range l.keys {
		var key string
		json.Unmarshal(raw[k.start:k.end], &key)
		if _, ok := values[key]; ok || key == "source" {
			order = append(order, key)
		}
	}
	for _, key := range []string{"cell_type", "execution_count", "id", "metadata", "outputs", "source"} {
		if _, ok := values[key]; (ok || key == "source") && !contains(order, key) {
			order = append(order, key)
		}
	}
	memberIndent := memberWS
	if i := strings.LastIndexByte(memberWS, '\n'); i >= 0 {
		memberIndent = memberWS[i+1:]
	}
	var source string
	if len(l.elems) > 0 {
		// The source list laid out like the model cell's.
		open, sep, close := nb.listLayout(l)
		var items []string
		for _, line := range splitLines(src) {
			items = append(items, nb.quote(line))
		}
		source = "[" + open + strings.Join(items, sep) + close + "]"
	} else if strings.Contains(memberWS, "\n") {
		lines := splitLines(src)
		var sb strings.Builder
		sb.WriteString("[")
		for i, line := range lines {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString("\n" + memberIndent + nb.indent + nb.quote(line))
		}
		if len(lines) > 0 {
			sb.WriteString("\n" + memberIndent)
		}
		sb.WriteString("]")
		source = sb.String()
	} else {
		var items []string
		for _, line := range splitLines(src) {
			items = append(items, nb.quote(line))
		}
		source = "[" + strings.Join(items, ",") + "]"
	}
	values["source"] = source
	var sb strings.Builder
	sb.WriteString("{")
	for i, key := range order {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(memberWS)
		sb.WriteString(`"` + key + `"` + colon + values[key])
	}
	sb.WriteString(closeWS)
	sb.WriteString("}")
	return sb.String()
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// newID derives a cell id from the cell's source, unique in the notebook
// (nbformat 4.5: 1 to 64 characters of [a-zA-Z0-9-_]).
func (nb *Notebook) newID(src string) string {
	sum := sha1.Sum([]byte(src))
	base := "gpuopt-" + hex.EncodeToString(sum[:4])
	id := base
	for n := 2; nb.ids[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	return id
}

// quote encodes s as a JSON string the way Jupyter (Python's json.dumps)
// writes it: ", \ and control characters escaped, non-ASCII kept raw
// unless the file escapes it.
func (nb *Notebook) quote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		default:
			switch {
			case r < 0x20:
				fmt.Fprintf(&sb, `\u%04x`, r)
			case r >= 0x80 && nb.ensureASCII:
				if r > 0xffff {
					a, b := utf16.EncodeRune(r)
					fmt.Fprintf(&sb, `\u%04x\u%04x`, a, b)
				} else {
					fmt.Fprintf(&sb, `\u%04x`, r)
				}
			default:
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
