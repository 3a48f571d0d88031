package rewrite

import "testing"

// TestSyntaxErrorSite: an error that recovery grows over the well-formed
// statements before it is reported where the fault is, not at 1:1 (blind
// sample S29G's U-Net module: a line of dashes around a string).
func TestSyntaxErrorSite(t *testing.T) {
	src := "\"\"\" Full assembly \"\"\"\n\nimport torch.nn.functional as F\n\nfrom .unet_parts import *\n\n--------\"\"\"model\"\"\"--------\n\nclass UNet(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
	f := Parse("unet_model.py", []byte(src))
	if got, want := f.SyntaxError(), "syntax error at 7:1: invalid syntax"; got != want {
		t.Errorf("SyntaxError() = %q, want %q", got, want)
	}
	f = Parse("ok.py", []byte("x = 1\ny = (2\n"))
	if got := f.SyntaxError(); got == "" || got[:18] == "syntax error at 1:" {
		t.Errorf("an unclosed parenthesis on line 2: SyntaxError() = %q", got)
	}
}
