package notebook

import (
	"regexp"
	"strings"
)

// IPython syntax in a code cell is never parsed as Python nor rewritten:
// each IPython line becomes a placeholder of one line, so that line
// numbers keep mapping to the cell, and the placeholder lines are never
// edited (Module.Admit refuses edits that touch them).
//
// A placeholder is `#` at module level and `pass` inside a block (a lone
// comment would leave the block empty). `%load_ext cudf.pandas` stands for
// its Python equivalent, `import cudf.pandas; cudf.pandas.install()`, so
// that the rules know pandas runs on cuDF. A cell whose first non-blank
// line starts with `%%` (a cell magic: %%bash, %%time, %%writefile) is
// left out of the module entirely.

// helpEnd is `obj?`, `obj.attr??`, `%magic?`: IPython's help syntax.
var helpEnd = regexp.MustCompile(`^%{0,2}[A-Za-z_*][\w*]*(?:\.[A-Za-z_*][\w*]*)*\?\??$`)

// assignMagic is `x = !ls`, `a, b = %sx cmd`: a name bound to the output
// of a shell command or line magic.
var assignMagic = regexp.MustCompile(`^[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*[!%]`)

// loadCudfPandas is the cell-magic way of installing cuDF's pandas
// accelerator.
var loadCudfPandas = regexp.MustCompile(`^%load_ext\s+cudf\.pandas\s*(?:#.*)?$`)

// pythonCellMagic matches the first line of the cell magics that run the
// rest of the cell as ordinary Python in the notebook's namespace:
// `%%time` (timing a training cell) and `%%capture` (hiding its output).
// `%%timeit` is not one: its body runs in a namespace of its own.
var pythonCellMagic = regexp.MustCompile(`^%%(?:time|capture)(?:[ \t]|$)`)

// CudfPandasPython is the Python a `%load_ext cudf.pandas` line stands
// for in the analysed module.
const CudfPandasPython = "import cudf.pandas; cudf.pandas.install()"

// isIPython reports whether a logical line (without its indentation and
// terminator) is IPython syntax rather than Python.
func isIPython(code string) bool {
	if code == "" {
		return false
	}
	switch code[0] {
	case '%', '!', '?':
		return true
	}
	trimmed := strings.TrimRight(code, " \t")
	return helpEnd.MatchString(trimmed) || assignMagic.MatchString(trimmed) || autoMagic.MatchString(trimmed)
}

// autoMagic is a line magic or shell alias called without its `%`
// (IPython's automagic, on by default): `cd data`, `cd ..`, `pip install
// xgboost`, `matplotlib inline`. Only the forms that are no Python are
// matched: the name, blanks, then a word, a number, a string, `..`, `~`
// or `$` (`ls -l` and `cd /data` parse as Python and stay Python).
var autoMagic = regexp.MustCompile(`^(?:cd|pwd|ls|ll|pip|conda|mkdir|rmdir|rm|cp|mv|cat|load_ext|reload_ext|unload_ext|matplotlib|time|timeit|run|env|who|whos|history|reset|alias|bookmark|prun|sx|system|store|config|autoreload|aimport|mamba|uv)[ \t]+(?:[\w'"~$]|\.\.)`)

// isCellMagic reports whether a cell's source starts (after blank lines)
// with `%%`, IPython's cell magic, other than one whose body IPython runs
// as Python code in the notebook's namespace (pythonCellMagic).
func isCellMagic(src string) bool {
	for _, line := range strings.SplitAfter(src, "\n") {
		t := strings.TrimSpace(line)
		if pythonCellMagic.MatchString(t) {
			return false // analysed: its first line is masked like a line magic
		}
		if t == "" {
			continue
		}
		return strings.HasPrefix(t, "%%")
	}
	return false
}

// maskedLine is one line of a cell as analysed.
type maskedLine struct {
	text   string // the line as analysed, terminator included
	masked bool   // an IPython line (or its continuation): a placeholder
}

// maskCell splits a cell's source into lines (terminators kept) and
// replaces its IPython lines with placeholders. It tracks strings,
// brackets and backslash continuations so that only lines that start a
// logical line can be IPython syntax: a `%s` inside a triple-quoted string
// stays what it is.
func maskCell(src string) []maskedLine {
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	out := make([]maskedLine, len(lines))
	var st lineState
	magicContinues := false
	for i, line := range lines {
		body, term := splitTerminator(line)
		if magicContinues {
			out[i] = maskedLine{text: indentOf(body) + "#" + term, masked: true}
			magicContinues = strings.HasSuffix(body, "\\")
			continue
		}
		code := strings.TrimLeft(body, " \t")
		if st.atLogicalStart() && isIPython(code) {
			indent := body[:len(body)-len(code)]
			placeholder := "#"
			switch {
			case loadCudfPandas.MatchString(strings.TrimRight(code, " \t")):
				placeholder = CudfPandasPython
			case indent != "":
				placeholder = "pass"
			}
			out[i] = maskedLine{text: indent + placeholder + term, masked: true}
			magicContinues = strings.HasSuffix(body, "\\")
			continue
		}
		st.scan(body)
		out[i] = maskedLine{text: line}
	}
	return out
}

func splitTerminator(line string) (body, term string) {
	switch {
	case strings.HasSuffix(line, "\r\n"):
		return line[:len(line)-2], "\r\n"
	case strings.HasSuffix(line, "\n"):
		return line[:len(line)-1], "\n"
	}
	return line, ""
}

func indentOf(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// lineState is what a Python tokenizer knows at the end of a line: an open
// string, open brackets, a backslash continuation.
type lineState struct {
	quote        byte // the open string's quote, 0 when none
	triple       bool
	depth        int
	continuation bool
}

func (s *lineState) atLogicalStart() bool {
	return s.quote == 0 && s.depth == 0 && !s.continuation
}

// scan advances the state over one line (without its terminator).
func (s *lineState) scan(line string) {
	s.continuation = false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if s.quote != 0 {
			switch {
			case c == '\\':
				i++
				if i >= len(line) {
					s.continuation = true // an escaped line break inside a string
				}
			case c == s.quote && !s.triple:
				s.quote = 0
			case c == s.quote && strings.HasPrefix(line[i:], strings.Repeat(string(c), 3)):
				s.quote, s.triple = 0, false
				i += 2
			}
			continue
		}
		switch c {
		case '#':
			return
		case '"', '\'':
			s.quote = c
			s.triple = strings.HasPrefix(line[i:], strings.Repeat(string(c), 3))
			if s.triple {
				i += 2
			}
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			s.depth = max(s.depth-1, 0)
		case '\\':
			if i == len(line)-1 {
				s.continuation = true
			}
		}
	}
	if s.quote != 0 && !s.triple && !s.continuation {
		s.quote = 0 // an unterminated one-line string ends with its line
	}
	if s.quote != 0 && s.triple {
		s.continuation = false
	}
}

// leadingIndent is IPython's leading_indent input transform: when a cell's
// first line is indented, that indentation is removed from every line that
// starts with it. It returns the dedented source and, per line, the bytes
// removed; yes is false when the first line is not indented.
func leadingIndent(src string) (out string, cut []int, yes bool) {
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return src, nil, false
	}
	space := indentOf(lines[0])
	if space == "" || strings.TrimSpace(lines[0]) == "" {
		return src, nil, false
	}
	var sb strings.Builder
	cut = make([]int, len(lines))
	for i, l := range lines {
		if strings.HasPrefix(l, space) {
			l, cut[i] = l[len(space):], len(space)
		}
		sb.WriteString(l)
	}
	return sb.String(), cut, true
}
