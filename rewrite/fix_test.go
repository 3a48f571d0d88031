package rewrite

import (
	"strings"
	"testing"
)

func TestApplyEditsRejectsOverlap(t *testing.T) {
	_, err := ApplyEdits([]byte("abcdef"), []Edit{{Start: 0, End: 3, New: "x"}, {Start: 2, End: 4, New: "y"}})
	if err == nil {
		t.Fatal("overlapping edits were applied")
	}
	out, err := ApplyEdits([]byte("abcdef"), []Edit{{Start: 4, End: 6, New: "Z"}, {Start: 0, End: 1, New: "A"}, {Start: 3, End: 3, New: "-"}})
	if err != nil || string(out) != "Abc-dZ" {
		t.Fatalf("got %q, %v", out, err)
	}
}

// renameAnalyzer reports every identifier named old with a fix renaming it
// to new: a minimal rule for exercising the fix loop.
func renameAnalyzer(old, new string, a Applicability) Analyzer {
	return func(f *File) []Finding {
		var out []Finding
		f.Root.Walk(func(n *Node) bool {
			if n.Type == "identifier" && n.Text() == old {
				out = append(out, Finding{Code: "T001", Start: n.Start, End: n.End,
					Fix: &Fix{Applicability: a, Edits: []Edit{{Start: n.Start, End: n.End, New: new}}}})
			}
			return true
		})
		return out
	}
}

func all(Finding) bool { return true }

func TestFixFileKeepsLayoutCommentsAndCRLF(t *testing.T) {
	src := "import torch\r\n# a comment\r\nif True:\r\n\tfoo = 1  # trailing\r\n\tprint('foo', foo)\r\n"
	res := FixFile(Parse("t.py", []byte(src)), renameAnalyzer("foo", "bar", Safe), all)
	want := "import torch\r\n# a comment\r\nif True:\r\n\tbar = 1  # trailing\r\n\tprint('foo', bar)\r\n"
	if string(res.Output) != want {
		t.Fatalf("got %q\nwant %q", res.Output, want)
	}
	if res.Applied["T001"] != 2 {
		t.Errorf("applied %v", res.Applied)
	}
	again := FixFile(Parse("t.py", res.Output), renameAnalyzer("foo", "bar", Safe), all)
	if string(again.Output) != want || again.Passes != 0 {
		t.Errorf("not idempotent: %q after %d passes", again.Output, again.Passes)
	}
}

func TestFixFileReachesFixedPoint(t *testing.T) {
	// a -> b in one pass, b -> c in the next: the loop must chain them.
	chain := func(f *File) []Finding {
		return append(renameAnalyzer("a", "b", Safe)(f), renameAnalyzer("b", "c", Safe)(f)...)
	}
	res := FixFile(Parse("t.py", []byte("x = a + b\n")), chain, all)
	if string(res.Output) != "x = c + c\n" || res.Passes != 2 {
		t.Fatalf("got %q in %d passes", res.Output, res.Passes)
	}
}

func TestFixFileOverlappingFixesApplyOneAtATime(t *testing.T) {
	src := "value = 1\n"
	both := func(f *File) []Finding {
		var out []Finding
		f.Root.Walk(func(n *Node) bool {
			if n.Type == "identifier" && n.Text() == "value" {
				out = append(out,
					Finding{Code: "T1", Fix: &Fix{Edits: []Edit{{Start: n.Start, End: n.End, New: "v1"}}}},
					Finding{Code: "T2", Fix: &Fix{Edits: []Edit{{Start: n.Start + 1, End: n.End, New: "x"}}}})
			}
			return true
		})
		return out
	}
	res := FixFile(Parse("t.py", []byte(src)), both, all)
	if string(res.Output) != "v1 = 1\n" {
		t.Fatalf("got %q", res.Output)
	}
}

func TestFixFileDropsFixesThatBreakSyntax(t *testing.T) {
	src := "foo = 1\nbar = 2\n"
	breaking := func(f *File) []Finding {
		var out []Finding
		f.Root.Walk(func(n *Node) bool {
			switch {
			case n.Type == "identifier" && n.Text() == "foo":
				out = append(out, Finding{Code: "BAD", Fix: &Fix{Edits: []Edit{{Start: n.Start, End: n.End, New: "foo ="}}}})
			case n.Type == "identifier" && n.Text() == "bar":
				out = append(out, Finding{Code: "OK", Fix: &Fix{Edits: []Edit{{Start: n.Start, End: n.End, New: "baz"}}}})
			}
			return true
		})
		return out
	}
	res := FixFile(Parse("t.py", []byte(src)), breaking, all)
	if string(res.Output) != "foo = 1\nbaz = 2\n" {
		t.Fatalf("got %q", res.Output)
	}
	if res.Dropped == 0 {
		t.Error("the breaking fix was not counted as dropped")
	}
}

func TestFixFileLeavesSyntaxErrorsAlone(t *testing.T) {
	src := "foo = (\nfoo = 2\n"
	f := Parse("t.py", []byte(src))
	if !f.HasSyntaxErrors() || !strings.Contains(f.SyntaxError(), "syntax") {
		t.Fatalf("expected a syntax error, got %q", f.SyntaxError())
	}
	res := FixFile(f, renameAnalyzer("foo", "bar", Safe), all)
	if string(res.Output) != src {
		t.Fatalf("a file with a syntax error was rewritten: %q", res.Output)
	}
}

func TestFixFileHonoursApplicability(t *testing.T) {
	src := "foo = 1\n"
	safeOnly := func(fd Finding) bool { return fd.Fix.Applicability == Safe }
	res := FixFile(Parse("t.py", []byte(src)), renameAnalyzer("foo", "bar", Unsafe), safeOnly)
	if string(res.Output) != src {
		t.Fatalf("an unsafe fix was applied: %q", res.Output)
	}
}

func TestUTF16Positions(t *testing.T) {
	src := NewSource("t.py", []byte("# é😀\nx = 1\n"))
	// "# é😀" is 2 + 1 + 2 UTF-16 units; the emoji is 4 bytes.
	off := len("# é😀")
	if l, c := src.UTF16Position(off); l != 0 || c != 5 {
		t.Errorf("UTF16Position = %d:%d, want 0:5", l, c)
	}
	if l, c := src.Position(off); l != 0 || c != 4 {
		t.Errorf("Position = %d:%d, want 0:4 (characters)", l, c)
	}
	if got := src.OffsetFromUTF16(0, 5); got != off {
		t.Errorf("OffsetFromUTF16 = %d, want %d", got, off)
	}
	if got := src.OffsetFromUTF16(1, 99); got != src.LineEnd(1) {
		t.Errorf("clamp: %d", got)
	}
}

func TestSourceDetectsLineEndingAndIndent(t *testing.T) {
	s := NewSource("t.py", []byte("def f():\r\n\treturn 1\r\n"))
	if s.LineEnding != "\r\n" || s.IndentUnit != "\t" {
		t.Errorf("got %q %q", s.LineEnding, s.IndentUnit)
	}
	s = NewSource("t.py", []byte("class A:\n  x = 1\n"))
	if s.LineEnding != "\n" || s.IndentUnit != "  " {
		t.Errorf("got %q %q", s.LineEnding, s.IndentUnit)
	}
}

func TestReparseMatchesFullParse(t *testing.T) {
	old := Parse("t.py", []byte("import torch\nx = torch.zeros(3)\n"))
	e := Edit{Start: len("import torch\nx = torch."), End: len("import torch\nx = torch.zeros"), New: "ones"}
	next, _ := ApplyEdits(old.Src.Bytes, []Edit{e})
	inc := Reparse(old, next, e)
	full := Parse("t.py", next)
	var a, b []string
	inc.Root.Walk(func(n *Node) bool { a = append(a, n.Type+":"+n.Text()); return true })
	full.Root.Walk(func(n *Node) bool { b = append(b, n.Type+":"+n.Text()); return true })
	if strings.Join(a, "|") != strings.Join(b, "|") {
		t.Fatalf("incremental tree differs:\n%v\n%v", a, b)
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk"
	d := UnifiedDiff("x.py", []byte(old), []byte(new))
	// Seven unchanged lines between the changes: two hunks (GNU diff merges
	// hunks only when at most 2×3 context lines separate them).
	want := "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -7,5 +7,5 @@\n g\n h\n i\n-j\n-k\n+J\n+k\n\\ No newline at end of file\n"
	if d != want {
		t.Fatalf("got\n%s\nwant\n%s", d, want)
	}
	if UnifiedDiff("x.py", []byte(old), []byte(old)) != "" {
		t.Error("diff of equal inputs is not empty")
	}
}

// A fix that deletes a comment without writing it back is detected, one that
// carries the comment in its new text is not.
func TestDropsComment(t *testing.T) {
	src := "x = f(a,  # why a\n      b)\ny = 2\n"
	f := Parse("t.py", []byte(src))
	at := strings.Index(src, "a,")
	end := strings.Index(src, "b)")
	drop := &Fix{Edits: []Edit{{Start: at, End: end}}}
	keep := &Fix{Edits: []Edit{{Start: at, End: end, New: "# why a\n      "}}}
	outside := &Fix{Edits: []Edit{{Start: strings.Index(src, "y = 2"), End: len(src) - 1, New: "y = 3"}}}
	if !f.DropsComment(drop) || f.DropsComment(keep) || f.DropsComment(outside) || f.DropsComment(nil) {
		t.Errorf("drop %v keep %v outside %v", f.DropsComment(drop), f.DropsComment(keep), f.DropsComment(outside))
	}
}

// TestAppendItemRespectsSplatsAndExistingKeywords checks that a keyword is
// never added to a call that passes it already or may pass it through a
// ** splat (f(device="cuda", **{"device": "cuda"}) raises TypeError).
func TestAppendItemRespectsSplatsAndExistingKeywords(t *testing.T) {
	src := "f(a, **opts)\ng(a, device=0)\nh(a)\nk(*args)\n"
	file := Parse("t.py", []byte(src))
	defer file.Release()
	var calls []*Node
	file.Root.Walk(func(n *Node) bool {
		if n.Type == "call" {
			calls = append(calls, n)
		}
		return true
	})
	if len(calls) != 4 {
		t.Fatalf("parsed %d calls", len(calls))
	}
	args := func(i int) *Node { return calls[i].ChildByField("arguments") }
	if _, ok := AppendItem(args(0), `device="cuda"`); ok {
		t.Error("added a keyword next to a ** splat")
	}
	if _, ok := AppendItem(args(0), "extra"); !ok {
		t.Error("refused a positional item (the splat cannot clash with it)")
	}
	if _, ok := AppendItem(args(1), `device="cuda"`); ok {
		t.Error("added a keyword the call already passes")
	}
	if e, ok := AppendItem(args(1), `fused=True`); !ok || e.New != ", fused=True" {
		t.Errorf("refused a new keyword: %+v %v", e, ok)
	}
	if _, ok := AppendItem(args(2), `x==y`); !ok {
		t.Error("a comparison is not a keyword")
	}
	if _, ok := AppendItem(args(3), `non_blocking=True`); !ok {
		t.Error("a * splat passes positional arguments only")
	}
}
