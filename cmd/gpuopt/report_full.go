package main

// The text formats of `gpuopt check`, as ruff prints them: "full" (the
// default) shows each finding with its source lines, the span underlined
// and the fix's title under it; "concise" is one line per finding. Both end
// with a summary, or are replaced by a count per code with --statistics.

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
)

// textOptions are the flags that shape text output.
type textOptions struct {
	statistics bool // a count per code instead of the findings
	showFixes  bool // each fix's change under its finding
}

// shown is one finding as the text formats print it. In a notebook, src
// is the finding's cell and lines count from the cell's first.
type shown struct {
	path       string
	cell       int // notebooks: the cell's number, from 1; 0 for a .py file
	rawLine    int // notebooks: the .ipynb line holding the finding's cell line
	src        *rewrite.Source
	start, end int // byte offsets in src
	line, col  int // 1-based; col in characters
	code, msg  string
	severity   rewrite.Severity
	fix        *rewrite.Fix
	edits      []rewrite.Edit // the fix's edits, in src's offsets
	elsewhere  int            // notebooks: the fix's edits in other cells, or new cells
}

// safeFix reports whether `gpuopt fix` applies the finding's fix.
func (s shown) safeFix() bool { return s.fix != nil && s.fix.Applicability == rewrite.Safe }

// shownFindings lists the findings of reports in output order; a syntax
// error comes first in its file, as code E999.
func shownFindings(reports []fileReport) []shown {
	var out []shown
	for _, r := range reports {
		if r.Syntax != "" {
			out = append(out, syntaxFinding(r))
		}
		for _, fd := range r.Findings {
			s := shown{path: r.Path, src: r.Src, start: fd.Start, end: fd.End, code: fd.Code, msg: fd.Message, severity: fd.Severity, fix: fd.Fix}
			if fd.Fix != nil {
				s.edits = fd.Fix.Edits
			}
			if r.nb != nil {
				s = inCell(r, s)
			}
			l := locate(s.src, s.start)
			s.line, s.col = l.Line, l.Column
			if r.nb != nil {
				s.rawLine = r.nb.nb.RawLine(s.cell-1, s.line-1)
			}
			out = append(out, s)
		}
	}
	return out
}

// inCell moves a notebook finding from the module's offsets to its cell's.
func inCell(r fileReport, s shown) shown {
	mod := r.nb.mod
	cell, start, _ := mod.Locate(s.start)
	_, end, _ := mod.Locate(s.end)
	s.cell, s.src, s.start, s.end = notebook.CellNumber(cell), mod.CellSource(cell), start, max(start, end)
	s.edits = nil
	if s.fix == nil {
		return s
	}
	for _, e := range s.fix.Edits {
		c1, from, _ := mod.Locate(e.Start)
		c2, to, _ := mod.Locate(e.End)
		if e.NewCell || c1 != cell || c2 != cell {
			s.elsewhere++
			continue
		}
		s.edits = append(s.edits, rewrite.Edit{Start: from, End: to, New: e.New})
	}
	return s
}

// The notes that follow a syntax error's message. A file with one is never
// rewritten, but the rules still read the code the parser recovered around
// the error, so its other findings stay (as ruff does); a notebook cell with
// one is left out of the analysis.
const (
	syntaxNote     = " (the file is never rewritten; findings elsewhere come from the code around the error)"
	cellSyntaxNote = " (this cell is not analysed, never rewritten)"
)

// syntaxFinding is a report's syntax error as finding E999.
func syntaxFinding(r fileReport) shown {
	s := shown{path: r.Path, src: r.Src, code: "E999", severity: rewrite.Error,
		msg: r.Syntax + syntaxNote}
	if r.nb != nil {
		s.msg = r.Syntax + cellSyntaxNote
		fmt.Sscanf(r.Syntax, "syntax error at cell %d:%d:%d", &s.cell, &s.line, &s.col)
		s.cell, s.line, s.col = max(s.cell, 1), max(s.line, 1), max(s.col, 1)
		s.src = r.nb.mod.CellSource(s.cell - 1)
		s.rawLine = r.nb.nb.RawLine(s.cell-1, s.line-1)
	} else {
		s.line, s.col = syntaxPosition(r.Syntax)
	}
	if s.src != nil && s.line <= s.src.LineCount() {
		s.start = offsetOf(s.src, s.line-1, s.col-1)
		s.end = s.start
	} else {
		s.src = nil
	}
	return s
}

// syntaxPosition reads the 1-based line and column out of File.SyntaxError's
// message ("syntax error at 3:7: ...").
func syntaxPosition(msg string) (line, col int) {
	fmt.Sscanf(msg, "syntax error at %d:%d", &line, &col)
	return max(line, 1), max(col, 1)
}

// offsetOf is the byte offset of the 0-based character column col of line.
func offsetOf(src *rewrite.Source, line, col int) int {
	off, end := src.LineStart(line), src.LineEnd(line)
	for ; col > 0 && off < end; col-- {
		_, n := utf8.DecodeRune(src.Bytes[off:end])
		off += n
	}
	return off
}

// writeHeader prints "path:line:col: CODE [*] message", ruff's first line.
func writeHeader(w io.Writer, s shown, st style) {
	mark := ""
	if s.safeFix() {
		mark = st.mark("[*]") + " "
	}
	where := st.bold(s.path)
	if s.cell > 0 {
		where += fmt.Sprintf(":cell %d", s.cell) // as ruff names a notebook's place
	}
	fmt.Fprintf(w, "%s:%d:%d: %s %s%s\n", where, s.line, s.col, st.code(s.code), mark, s.msg)
}

func writeConcise(w io.Writer, items []shown, st style) {
	for _, s := range items {
		writeHeader(w, s, st)
	}
}

// Code frames show this many lines around the span, and elide the middle
// of spans longer than maxFrameLines.
const (
	contextLines  = 1
	maxFrameLines = 6
	tabWidth      = 4
	// maxFrameBytes bounds a source line shown in a frame: a longer one is
	// shown as a window around the finding ("…" where it is cut), so that
	// 20,000 findings on one long line print 20,000 short frames, not the
	// line 20,000 times.
	maxFrameBytes = 160
)

func writeFull(w io.Writer, items []shown, st style, showFixes bool) {
	for _, s := range items {
		writeHeader(w, s, st)
		if s.src != nil {
			writeFrame(w, s, st)
		}
		gutter := strings.Repeat(" ", frameGutterWidth(s))
		if s.fix != nil && s.fix.Message != "" {
			fmt.Fprintf(w, "%s %s %s %s%s\n", gutter, st.gutter("="), st.bold("help:"), s.fix.Message, applicabilityNote(s.fix.Applicability))
		}
		if showFixes && len(s.edits) > 0 && s.src != nil {
			writeFixDiff(w, s, st)
		}
		if showFixes && s.elsewhere > 0 {
			fmt.Fprintf(w, "%s %s the fix also changes %d place%s in other cells\n", gutter, st.gutter("ℹ"), s.elsewhere, plural(s.elsewhere))
		}
		fmt.Fprintln(w)
	}
}

func applicabilityNote(a rewrite.Applicability) string {
	switch a {
	case rewrite.Unsafe:
		return " (unsafe fix: `gpuopt fix --unsafe-fixes`)"
	case rewrite.Hint:
		return " (a hint: never applied in batch)"
	}
	return ""
}

// frameLines is the 0-based first and last line of the span (a span that
// ends at the start of a line ends on the line before).
func frameLines(s shown) (first, last int) {
	first, last = s.src.LineOf(s.start), s.src.LineOf(s.end)
	if last > first && s.end == s.src.LineStart(last) {
		last--
	}
	return first, last
}

func frameGutterWidth(s shown) int {
	if s.src == nil {
		return 1
	}
	_, last := frameLines(s)
	return len(strconv.Itoa(min(last+contextLines, s.src.LineCount()-1) + 1))
}

func writeFrame(w io.Writer, s shown, st style) {
	src := s.src
	first, last := frameLines(s)
	lo, hi := max(0, first-contextLines), min(src.LineCount()-1, last+contextLines)
	for lo < first && strings.TrimSpace(src.LineText(lo)) == "" {
		lo++
	}
	for hi > last && strings.TrimSpace(src.LineText(hi)) == "" {
		hi--
	}
	width := frameGutterWidth(s)
	pad := strings.Repeat(" ", width)
	fmt.Fprintln(w, st.gutter(pad+" |"))
	elided := last-first+1 > maxFrameLines
	for l := lo; l <= hi; l++ {
		if elided && l >= first+3 && l < last-1 {
			if l == first+3 {
				fmt.Fprintln(w, st.gutter(strings.Repeat(".", width)+" |"))
			}
			continue
		}
		ws, we := frameWindow(src, l, s.start)
		text := expandTabs(src.Text(ws, we))
		if ws > src.LineStart(l) {
			text = "…" + text
		}
		if we < src.LineEnd(l) {
			text += "…"
		}
		num := st.gutter(fmt.Sprintf("%*d |", width, l+1))
		if text == "" {
			fmt.Fprintln(w, num)
		} else {
			fmt.Fprintln(w, num, text)
		}
		if l < first || l > last {
			continue
		}
		from, to := underline(src, ws, we, s.start, s.end, l == first, l == last)
		if ws > src.LineStart(l) {
			from, to = from+1, to+1 // the "…"
		}
		label := ""
		if l == last {
			label = " " + s.code
		}
		fmt.Fprintf(w, "%s %s%s\n", st.gutter(pad+" |"), strings.Repeat(" ", from), st.code(strings.Repeat("^", max(to-from, 1))+label))
	}
	fmt.Fprintln(w, st.gutter(pad+" |"))
}

// frameWindow returns the part [ws, we) of line l a frame shows: all of
// it, or for a line over maxFrameBytes a window that starts a little
// before the finding's start when that lies on the line.
func frameWindow(src *rewrite.Source, l, start int) (ws, we int) {
	ls, le := src.LineStart(l), src.LineEnd(l)
	if le-ls <= maxFrameBytes {
		return ls, le
	}
	ws = ls
	if start >= ls && start <= le {
		ws = max(ls, start-maxFrameBytes/4)
	}
	we = min(le, ws+maxFrameBytes)
	for ws > ls && !utf8.RuneStart(src.Bytes[ws]) {
		ws--
	}
	for we < le && !utf8.RuneStart(src.Bytes[we]) {
		we++
	}
	return ws, we
}

// underline is the display columns [from, to) to underline in the shown
// part [ls, le) of a line, of a span [start, end): the span's own columns
// on its first and last line, the line's text without indentation in
// between.
func underline(src *rewrite.Source, ls, le, start, end int, isFirst, isLast bool) (from, to int) {
	line := src.Bytes[ls:le]
	indent := len(line) - len(strings.TrimLeft(string(line), " \t"))
	a, b := ls+indent, le
	if isFirst {
		a = min(max(start, ls), le)
	}
	if isLast {
		b = max(min(end, le), ls)
	}
	if !isLast || b < a {
		trimmed := strings.TrimRight(string(src.Bytes[a:max(a, b)]), " \t")
		b = a + len(trimmed)
	}
	from = displayWidth(string(src.Bytes[ls:a]))
	to = from + displayWidth(string(src.Bytes[a:max(a, b)]))
	return from, to
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth)) }

// displayWidth is how many terminal columns s takes, tabs as tabWidth.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if r == '\t' {
			n += tabWidth
		} else {
			n += runewidth.RuneWidth(r)
		}
	}
	return n
}

// writeFixDiff prints the lines a fix changes, before (-) and after (+),
// one hunk per group of edits on neighbouring lines.
func writeFixDiff(w io.Writer, s shown, st style) {
	src := s.src
	edits := append([]rewrite.Edit(nil), s.edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	width := frameGutterWidth(s)
	for _, e := range edits {
		width = max(width, len(strconv.Itoa(src.LineOf(e.End)+1)))
	}
	pad := strings.Repeat(" ", width)
	kind := s.fix.Applicability.String()
	fmt.Fprintf(w, "%s %s %s fix\n", pad, st.gutter("ℹ"), strings.ToUpper(kind[:1])+kind[1:])
	for len(edits) > 0 {
		n, last := 1, src.LineOf(edits[0].End)
		for n < len(edits) && src.LineOf(edits[n].Start) <= last+1 {
			last = max(last, src.LineOf(edits[n].End))
			n++
		}
		writeHunk(w, src, edits[:n], width, st)
		edits = edits[n:]
	}
}

// writeHunk prints the whole lines that edits (sorted, neighbours) touch.
func writeHunk(w io.Writer, src *rewrite.Source, edits []rewrite.Edit, width int, st style) {
	a, b := edits[0].Start, edits[0].End
	for _, e := range edits[1:] {
		b = max(b, e.End)
	}
	l0 := src.LineOf(a)
	segStart, segEnd := src.LineStart(l0), max(src.LineEnd(src.LineOf(b)), b)
	shifted := make([]rewrite.Edit, len(edits))
	for i, e := range edits {
		shifted[i] = rewrite.Edit{Start: e.Start - segStart, End: e.End - segStart, New: e.New}
	}
	after, err := rewrite.ApplyEdits(src.Bytes[segStart:segEnd], shifted)
	if err != nil {
		return
	}
	for i, line := range splitLines(string(src.Bytes[segStart:segEnd])) {
		fmt.Fprintf(w, "%s %s\n", st.gutter(fmt.Sprintf("%*d", width, l0+1+i)), st.paint(sgrRedText, "- "+expandTabs(line)))
	}
	for _, line := range splitLines(string(after)) {
		fmt.Fprintf(w, "%s %s\n", strings.Repeat(" ", width), st.paint(sgrGreen, "+ "+expandTabs(line)))
	}
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	return strings.Split(s, "\n")
}

// writeSummary ends the text formats: how many findings, how many fixable.
func writeSummary(w io.Writer, items []shown, st style) {
	if len(items) == 0 {
		fmt.Fprintln(w, st.paint(sgrGreen, "All checks passed!"))
		return
	}
	fixable, unsafe := 0, 0
	for _, s := range items {
		switch {
		case s.safeFix():
			fixable++
		case s.fix != nil && s.fix.Applicability == rewrite.Unsafe:
			unsafe++
		}
	}
	fmt.Fprintf(w, "Found %d finding%s.\n", len(items), plural(len(items)))
	if fixable > 0 {
		fmt.Fprintf(w, "%s %d fixable with `gpuopt fix`.\n", st.mark("[*]"), fixable)
	}
	if unsafe > 0 {
		fmt.Fprintf(w, "%d more fixable with `gpuopt fix --unsafe-fixes` (may change numerics; see `gpuopt rule CODE`).\n", unsafe)
	}
}

// statistic is one row of --statistics.
type statistic struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	Count   int    `json:"count"`
	Fixable bool   `json:"fixable"` // some of them have a safe fix
}

func statistics(items []shown) []statistic {
	byCode := map[string]*statistic{}
	for _, s := range items {
		row := byCode[s.code]
		if row == nil {
			row = &statistic{Code: s.code, Name: ruleName(s.code)}
			byCode[s.code] = row
		}
		row.Count++
		row.Fixable = row.Fixable || s.safeFix()
	}
	rows := []statistic{}
	for _, r := range byCode {
		rows = append(rows, *r)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Count != rows[j].Count {
			return rows[i].Count > rows[j].Count
		}
		return rows[i].Code < rows[j].Code
	})
	return rows
}

func ruleName(code string) string {
	switch code {
	case "E999":
		return "syntax-error"
	case patterns.InternalErrorCode:
		return "internal-error"
	}
	if r := patterns.Lookup(code); r != nil {
		return r.Name
	}
	return ""
}

// writeStatistics prints a count per code (ruff's --statistics), as text
// or, for --output-format json, as a JSON array.
func writeStatistics(w io.Writer, format string, items []shown, st style) error {
	rows := statistics(items)
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	countW, codeW := 1, 4
	for _, r := range rows {
		countW, codeW = max(countW, len(strconv.Itoa(r.Count))), max(codeW, len(r.Code))
	}
	for _, r := range rows {
		mark := "   "
		if r.Fixable {
			mark = st.mark("[*]")
		}
		fmt.Fprintf(w, "%*d  %s  %s %s\n", countW, r.Count, st.code(r.Code)+strings.Repeat(" ", codeW-len(r.Code)), mark, r.Name)
	}
	writeSummary(w, items, st)
	return nil
}

// listFixed enumerates what `gpuopt fix --show-fixes` changed, per file and
// code, as ruff does.
func listFixed(w io.Writer, results []fixResult, diff bool) {
	n := 0
	for _, r := range results {
		for _, k := range r.applied {
			n += k
		}
	}
	if n == 0 {
		return
	}
	verb := "Fixed"
	if diff {
		verb = "Would fix"
	}
	fmt.Fprintf(w, "%s %d finding%s:\n", verb, n, plural(n))
	for _, r := range results {
		if len(r.applied) == 0 {
			continue
		}
		fmt.Fprintf(w, "- %s:\n", r.report.Path)
		codes := make([]string, 0, len(r.applied))
		for code := range r.applied {
			codes = append(codes, code)
		}
		sort.Strings(codes)
		for _, code := range codes {
			fmt.Fprintf(w, "    %d × %s (%s)\n", r.applied[code], code, ruleName(code))
		}
	}
}
