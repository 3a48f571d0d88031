package rewrite

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// snippets reads a testdata file of "### name" sections. .ci/run checks
// the same files against CPython (python3 -m py_compile), so that the lists
// stay honest: every rejected snippet is a SyntaxError there, every
// accepted one compiles.
func snippets(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, sec := range strings.Split(string(b), "### ")[1:] {
		title, body, _ := strings.Cut(sec, "\n")
		out[title] = body
	}
	if len(out) < 10 {
		t.Fatalf("%s: only %d snippets", name, len(out))
	}
	return out
}

func TestCPythonRejectedSnippetsAreSyntaxErrors(t *testing.T) {
	for name, src := range snippets(t, "cpython_rejects.txt") {
		f := Parse("x.py", []byte(src))
		if !f.HasSyntaxErrors() || f.SyntaxError() == "" {
			t.Errorf("%s: not reported as a syntax error:\n%s", name, src)
		}
		f.Release()
	}
}

func TestCPythonAcceptedSnippetsAreNotSyntaxErrors(t *testing.T) {
	for name, src := range snippets(t, "cpython_accepts.txt") {
		f := Parse("x.py", []byte(src))
		if f.HasSyntaxErrors() {
			t.Errorf("%s: reported as %q but CPython compiles it:\n%s", name, f.SyntaxError(), src)
		}
		f.Release()
	}
}

// TestRejectionMessages checks what the messages say, at the right place.
func TestRejectionMessages(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"import torch\nprint \"x\"\n", "2:1: Python 2 print statement"},
		{"x = 1\nexec \"x\"\n", "2:1: Python 2 exec statement"},
		{"y = `x`\n", "1:5: backticks"},
		{"if a <> b:\n    pass\n", "1:6: '<>'"},
		{"raise E, \"m\"\n", "1:1: Python 2 raise"},
		{"try:\n    g()\nexcept Exception, msg:\n    print(msg)\n", "3:1: Python 2 `except E, name:`"},
		{"x = 0777\n", "1:5: leading zeros"},
		{"x = 10L\n", "1:5: leading zeros or an L suffix"},
		{"x = ur\"a\"\n", "1:5: string prefix \"ur\""},
		{"if x:\n        a = 1\n\tb = 2\n", "3:1: inconsistent use of tabs and spaces"},
		{"f(a=1, b=2, a=3)\n", "1:13: keyword argument repeated: a"},
		{"x = y.cuda(async=True)\n", "1:12: \"async\" is a keyword since Python 3.7"},
		{"return 1\n", "1:1: 'return' outside function"},
		{"class C:\n    yield 1\n", "2:5: 'yield' outside function"},
		{"for i in x:\n    pass\nelse:\n    break\n", "4:5: 'break' outside loop"},
		{"continue\n", "1:1: 'continue' not properly in loop"},
		{"def f():\n\treturn 1\ndef g():\n\t\n", "3:1: expected an indented block"},
		{"class C:\n    # nothing yet\n", "1:1: expected an indented block"},
		{"y = " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201) + "\n", "1:205: too many nested parentheses"},
	} {
		f := Parse("x.py", []byte(c.src))
		if got := f.SyntaxError(); !strings.Contains(got, c.want) {
			t.Errorf("%q: got %q, want it to contain %q", c.src, got, c.want)
		}
		f.Release()
	}
}

// TestExceptTupleIsNotPython2 leaves alone `except A, B:` whose block
// never reads B: Python 3.14 reads it as a tuple of exception types (PEP
// 758), Python 2 as a binding nothing uses.
func TestExceptTupleIsNotPython2(t *testing.T) {
	f := Parse("x.py", []byte("try:\n    g()\nexcept ValueError, TypeError:\n    pass\n"))
	if f.HasSyntaxErrors() {
		t.Errorf("reported as %q", f.SyntaxError())
	}
	f.Release()
}

// deepSources are files nested a million levels deep, generated here (not
// committed): they used to overflow the Go stack of the binder's walk, a
// fatal error nothing recovers from.
func deepSources(n int) map[string][]byte {
	return map[string][]byte{
		"unary minus": []byte("import torch\ny = " + strings.Repeat("-", 5*n) + "1\n"),
		"parentheses": []byte("import torch\ny = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n"),
		"brackets":    []byte("import torch\ny = " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "\n"),
		"plus one":    []byte("import torch\ny = 1" + strings.Repeat("+1", n) + "\n"),
	}
}

func TestDeepNestingIsRejectedNotWalked(t *testing.T) {
	// The files were a million deep; one is here, the others a
	// fifth of that with the stack limited to 32 MB, which overflowed just
	// the same before the fix.
	defer debug.SetMaxStack(debug.SetMaxStack(32 << 20))
	n := 200_000
	for name, src := range deepSources(n) {
		f := Parse("deep.py", src)
		if !f.TooDeep() || !strings.Contains(f.SyntaxError(), "nest") {
			t.Errorf("%s: TooDeep %v, syntax error %q", name, f.TooDeep(), f.SyntaxError())
		}
		if m := f.Model(); len(m.Module.Bindings) != 0 {
			t.Errorf("%s: a file too deep to analyse got a model with bindings", name)
		}
		f.Release()
	}
	// A chain CPython accepts (an or-chain is flat for it) is not rejected
	// below the limit, and is walked without recursion trouble.
	f := Parse("or.py", []byte("a = 1\ny = a"+strings.Repeat(" or a", MaxNesting/2)+"\n"))
	if f.HasSyntaxErrors() {
		t.Errorf("or-chain of %d: %s", MaxNesting/2, f.SyntaxError())
	}
	if len(f.Model().Module.Bindings["a"][0].Uses) != MaxNesting/2+1 {
		t.Errorf("or-chain: uses of a not all found")
	}
	f.Release()
}

// A UTF-8 byte order mark is not Python: tree-sitter must not see it (it
// used to swallow the first line into an error node, hiding the imports
// on it), but offsets still count it, so that a file is written back with
// its mark and editors that keep it in the text get right positions.
func TestByteOrderMarkIsIgnored(t *testing.T) {
	f := Parse("bom.py", []byte("\ufeffimport torch\nx = torch.zeros(3)\n"))
	if f.HasSyntaxErrors() {
		t.Errorf("BOM: %s", f.SyntaxError())
	}
	if !f.Model().Imports("torch") {
		t.Errorf("BOM: the import on the first line is not seen")
	}
	if imp := f.OfType("import_statement"); len(imp) != 1 || imp[0].Start != 3 || imp[0].Text() != "import torch" {
		t.Errorf("BOM: import statement %v", imp)
	}
	// Columns count characters after the mark, as editors show them.
	if l, c := f.Src.Position(3); l != 0 || c != 0 {
		t.Errorf("BOM: Position(3) = %d:%d, want 0:0", l, c)
	}
	f.Release()
	f = Parse("bom.py", []byte("\ufeffimport torch\nx = (\n"))
	if got := f.SyntaxError(); !strings.HasPrefix(got, "syntax error at 2:") {
		t.Errorf("BOM: syntax error %q, want it on line 2", got)
	}
	f.Release()
	f = Parse("bom.py", []byte("\ufeffprint 'x'\n"))
	if got := f.SyntaxError(); !strings.Contains(got, "1:1: Python 2 print") {
		t.Errorf("BOM: syntax error %q, want it at 1:1", got)
	}
	f.Release()
}

// Error recovery can move a broken def's body to the module: its return
// is the parse error's consequence, not a second error (the server would
// show it, and drop every fix while the user types).
func TestContextChecksWaitForACleanParse(t *testing.T) {
	for _, src := range []string{
		"def __:nit__(self):\n    return 1\n",
		"ass Net0(nn.Module):\n    def f(self):\n        return 1\n",
		"from x i\nport y\n\ndef f(x):\n    for i in x:\n        break\n    return x\n",
		// An edit of TestRecycledVersionsUnderConcurrentRequests (lsp).
		"def train_epoch_0(model, loader, optimizer, device=\"cuda\"):\n    model.train()\n    total = 0.0\n    for step, (xb, yb) in enumerate(loader):\n        xb, yb = xb.to(device), yb.to(device)\n        o1imizer.zero_grad()\n        los(s = F.crossimport xgboost as xgb\nenimport xgboost as xgb\nropy(model(xb), yb)\n        loss.backward()\n        optimizer.step()\n        total += loss.item()\n        if step % 100 == 0:\n            print(f\"bloc)0 step {step}: loss {total / (step + 1):.4f}\")\n    return total\n",
	} {
		f := Parse("x.py", []byte(src))
		if r, ok := f.FirstRejection(); ok {
			t.Errorf("%q: %s", src, r.Message)
		}
		f.Release()
	}
}

// BenchmarkCPythonChecks measures the checks every parse now runs (nesting,
// Python 2 spellings, placement, keywords, indentation replay) on the
// corpus examples, against the parse itself.
func BenchmarkCPythonChecks(b *testing.B) {
	var srcs [][]byte
	for _, dir := range []string{"../corpus/examples"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".py") {
				if src, err := os.ReadFile(dir + "/" + e.Name()); err == nil {
					srcs = append(srcs, src)
				}
			}
		}
	}
	if len(srcs) == 0 {
		b.Fatal("no corpus examples")
	}
	files := make([]*File, len(srcs))
	for i, src := range srcs {
		files[i] = Parse("x.py", src)
	}
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			f.Errors, f.errorMessages, f.tooDeep = f.Errors[:0], nil, false
			f.checkCPython()
		}
	}
	b.StopTimer()
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	t0 := time.Now()
	for _, src := range srcs {
		Parse("x.py", src).Release()
	}
	b.ReportMetric(perOp/float64(time.Since(t0).Nanoseconds()), "checks/parse")
}

// An edit that nests a reused subtree past the limit: the walk in C skips
// reused subtrees, the mirror's own measure still catches it.
func TestReparseNestingPastTheLimit(t *testing.T) {
	inner := strings.Repeat("-", MaxNesting-1000) + "1"
	src := []byte("import torch\ny = " + inner + "\n")
	old := Parse("x.py", src)
	if old.TooDeep() {
		t.Fatal("below the limit already too deep")
	}
	at := len("import torch\ny = ")
	ins := strings.Repeat("-", 2000)
	b := append(append(append([]byte(nil), src[:at]...), ins...), src[at:]...)
	f := Reparse(old, b, Edit{Start: at, End: at, New: ins})
	if !f.TooDeep() || !strings.Contains(f.SyntaxError(), "nesting too deep") {
		t.Errorf("after the edit: TooDeep %v, %q", f.TooDeep(), f.SyntaxError())
	}
	if len(f.Model().Module.Bindings) != 0 {
		t.Errorf("a file too deep to analyse got a model")
	}
	// And back: an edit that removes the nesting is analysed again.
	g := Reparse(f, src, Edit{Start: at, End: at + len(ins), New: ""})
	if g.TooDeep() || g.HasSyntaxErrors() || len(g.Model().Module.Bindings) == 0 {
		t.Errorf("after undoing the edit: TooDeep %v, %q", g.TooDeep(), g.SyntaxError())
	}
}
