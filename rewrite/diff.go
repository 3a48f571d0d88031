package rewrite

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// UnifiedDiff returns a unified diff from old to new that `git apply`
// and `patch -p1` accept, with git's header and paths a/<path> and
// b/<path> (quoted as git quotes them) and three lines of context. It is
// empty when nothing changed.
func UnifiedDiff(path string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(string(old), string(new))
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)

	// Flatten into a line script: ' ' kept, '-' removed, '+' added.
	type op struct {
		kind byte
		text string
	}
	var ops []op
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		for _, l := range splitLines(d.Text) {
			ops = append(ops, op{kind, l})
		}
	}

	const context = 3
	var sb strings.Builder
	// git's own header first: git apply reads quoted names (tabs,
	// newlines, quotes, non-ASCII) only from a patch that has it.
	from, to := QuoteGitPath("a/"+path), QuoteGitPath("b/"+path)
	fmt.Fprintf(&sb, "diff --git %s %s\n--- %s\n+++ %s\n", from, to, from, to)
	oldLine, newLine := 1, 1 // line numbers of ops[i]
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			oldLine++
			newLine++
			i++
			continue
		}
		// A hunk starts context lines before the change and ends when
		// more than 2*context unchanged lines follow the last change.
		start := max(0, i-context)
		oStart, nStart := oldLine-(i-start), newLine-(i-start)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(len(ops), end+context+1)
		var body strings.Builder
		oCount, nCount := 0, 0
		for k := start; k < stop; k++ {
			o := ops[k]
			body.WriteByte(o.kind)
			body.WriteString(o.text)
			if !strings.HasSuffix(o.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
			if o.kind != '+' {
				oCount++
			}
			if o.kind != '-' {
				nCount++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(oStart, oCount), hunkRange(nStart, nCount))
		sb.WriteString(body.String())
		for k := i; k < stop; k++ {
			if ops[k].kind != '+' {
				oldLine++
			}
			if ops[k].kind != '-' {
				newLine++
			}
		}
		i = stop
	}
	return sb.String()
}

func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// splitLines splits s after each '\n', keeping the terminators.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// QuoteGitPath quotes a path as git does in diff headers when it holds a
// double quote, a backslash, a control character or a non-ASCII byte
// (core.quotePath): C-style, in double quotes, bytes past ASCII in octal.
func QuoteGitPath(p string) string {
	quote := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			quote = true
			break
		}
	}
	if !quote {
		return p
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case '\a':
			sb.WriteString(`\a`)
		case '\b':
			sb.WriteString(`\b`)
		case '\t':
			sb.WriteString(`\t`)
		case '\n':
			sb.WriteString(`\n`)
		case '\v':
			sb.WriteString(`\v`)
		case '\f':
			sb.WriteString(`\f`)
		case '\r':
			sb.WriteString(`\r`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&sb, "\\%03o", c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
