package rewrite

import "testing"

// TestRestOfLineAfterCRLFComment: in a CRLF file tree-sitter's comment
// token takes the line's '\r', so a statement closed by a comment ends
// past the line's end (LineEnd stops before "\r\n"). RestOfLine reads
// nothing there instead of slicing backwards (blind sample S15I: AMP004's
// wrap panicked on such a loop).
func TestRestOfLineAfterCRLFComment(t *testing.T) {
	f := Parse("crlf.py", []byte("for p in ps:\r\n    loss += p # a penalty   \r\nloss.backward()\r\n"))
	loop := f.OfType("for_statement")[0]
	src := f.Src
	line := src.LineOf(loop.End)
	if loop.End <= src.LineEnd(line) {
		t.Fatalf("the loop ends at %d, within its last line (end %d): the case this test guards is gone", loop.End, src.LineEnd(line))
	}
	if got := src.RestOfLine(loop.End); got != "" {
		t.Errorf("RestOfLine after the comment = %q, want \"\"", got)
	}
	if got := src.RestOfLine(src.LineStart(1)); got != "    loss += p # a penalty   " {
		t.Errorf("RestOfLine of line 2 = %q", got)
	}
	if !ownsLines(loop) {
		t.Errorf("the loop owns its lines")
	}
}
