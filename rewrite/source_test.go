package rewrite

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// naivePositions are the definitions the indexed conversions must agree
// with: count the line's characters (or UTF-16 units) up to the offset.
func naivePosition(s *Source, off int) (line, col, units int) {
	line = s.LineOf(off)
	start := s.LineStart(line)
	if line == 0 && off >= s.BOM {
		col = utf8.RuneCount(s.Bytes[s.BOM:off])
	} else {
		col = utf8.RuneCount(s.Bytes[start:off])
	}
	for _, r := range string(s.Bytes[start:off]) {
		units += utf16.RuneLen(r)
	}
	return line, col, units
}

func TestPositionsAgreeWithCounting(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc", " ", "\n", "é", "€", "😀", "\r\n", "x = 1", strings.Repeat("z", 70), "\r"}
	for trial := 0; trial < 200; trial++ {
		var sb strings.Builder
		if trial%3 == 0 {
			sb.WriteString("\ufeff")
		}
		for i := rng.Intn(400); i > 0; i-- {
			sb.WriteString(pieces[rng.Intn(len(pieces))])
			if trial%5 == 4 && rng.Intn(50) == 0 {
				sb.WriteString("\x80\xff") // not UTF-8 (the fuzzer feeds such bytes)
			}
		}
		src := NewSource("t.py", []byte(sb.String()))
		for off := 0; off <= len(src.Bytes); off++ {
			if off < len(src.Bytes) && !utf8.RuneStart(src.Bytes[off]) {
				continue
			}
			line, col, units := naivePosition(src, off)
			if l, c := src.Position(off); l != line || c != col {
				t.Fatalf("trial %d: Position(%d) = %d:%d, want %d:%d", trial, off, l, c, line, col)
			}
			if l, u := src.UTF16Position(off); l != line || u != units {
				t.Fatalf("trial %d: UTF16Position(%d) = %d:%d, want %d:%d", trial, off, l, u, line, units)
			}
			if off <= src.LineEnd(line) {
				if back := src.OffsetFromUTF16(line, units); back != off {
					t.Fatalf("trial %d: OffsetFromUTF16(%d, %d) = %d, want %d", trial, line, units, back, off)
				}
			}
		}
		// Past the end of a line: clamped to its end.
		for line := 0; line < src.LineCount(); line++ {
			if got := src.OffsetFromUTF16(line, 1<<20); got != src.LineEnd(line) {
				t.Fatalf("trial %d: OffsetFromUTF16(%d, huge) = %d, want the line end %d", trial, line, got, src.LineEnd(line))
			}
		}
	}
}

// BenchmarkPositionsOnOneLongLine converts the offsets of 20,000 findings
// on one line (issue 16: each conversion used to rescan the line, 16.6 s
// for the whole check). Per op: one file's conversions, both units.
func BenchmarkPositionsOnOneLongLine(b *testing.B) {
	for _, text := range []struct{ name, item string }{{"ascii", "torch.zeros(1), "}, {"utf8", "torch.zeros(1), # é\n"[:16] + "é, "}} {
		b.Run(text.name, func(b *testing.B) {
			line := "x = [" + strings.Repeat(text.item, 20000) + "]\n"
			offs := make([]int, 0, 20000)
			for i := strings.Index(line, "torch"); i >= 0; {
				offs = append(offs, i)
				j := strings.Index(line[i+1:], "torch")
				if j < 0 {
					break
				}
				i += 1 + j
			}
			b.SetBytes(int64(len(line)))
			for range b.N {
				src := NewSource("long.py", []byte(line))
				for _, off := range offs {
					src.Position(off)
					src.UTF16Position(off)
				}
			}
		})
	}
}

// A lone carriage return ends a line too (old Mac files; CPython and LSP
// both count it), so that positions match what editors show.
func TestCarriageReturnLineEndings(t *testing.T) {
	src := NewSource("cr.py", []byte("a\rb\r\nc\nd\r\re"))
	if src.LineCount() != 6 {
		t.Fatalf("%d lines, want 6", src.LineCount())
	}
	for i, want := range []string{"a", "b", "c", "d", "", "e"} {
		if got := src.LineText(i); got != want {
			t.Errorf("line %d: %q, want %q", i, got, want)
		}
	}
	if l, c := src.Position(2); l != 1 || c != 0 {
		t.Errorf("Position(2) = %d:%d, want 1:0", l, c)
	}
	if cr := NewSource("cr.py", []byte("import torch\rx = 1\r")); cr.LineEnding != "\r" {
		t.Errorf("LineEnding %q, want \\r", cr.LineEnding)
	}
}
