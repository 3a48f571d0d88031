package notebook

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// jupyter is a notebook as Jupyter writes it: indent 1, sorted keys,
// sources as lists of lines, non-ASCII raw, no final newline after "}"
// but one at the end of the file.
const jupyter = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "m1",
   "metadata": {},
   "source": [
    "# Títle ✓\n",
    "text"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "c1",
   "metadata": {
    "tags": ["setup"]
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "ok\n"
     ]
    }
   ],
   "source": [
    "%matplotlib inline\n",
    "import torch\n",
    "x = \"naïve\\t\" # ünïcode"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "c2",
   "metadata": {},
   "outputs": [],
   "source": []
  },
  {
   "cell_type": "code",
   "execution_count": 2,
   "id": "c3",
   "metadata": {},
   "outputs": [],
   "source": "y = torch.zeros(3)\nprint(y)"
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`

func mustParse(t *testing.T, raw string) *Notebook {
	t.Helper()
	nb, err := Parse("t.ipynb", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

func TestRoundTripIsByteIdentical(t *testing.T) {
	minified := `{"cells":[{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["import torch\n","x = 1"]}],"metadata":{},"nbformat":4,"nbformat_minor":4}`
	escaped := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(jupyter, "í", `\u00ed`), "✓", `\u2713`), "ï", `\u00ef`)
	escaped = strings.ReplaceAll(escaped, "ü", `\u00fc`)
	crlf := strings.ReplaceAll(jupyter, "\n", "\r\n")
	for name, raw := range map[string]string{"jupyter": jupyter, "minified": minified, "ensure_ascii": escaped, "crlf": crlf,
		"indent4": strings.ReplaceAll(jupyter, "\n ", "\n    ")} {
		nb := mustParse(t, raw)
		out, err := nb.Render(nb.Cells)
		if err != nil || string(out) != raw {
			t.Errorf("%s: a notebook with nothing to change was rewritten (%v):\n%s", name, err, out)
		}
	}
}

func TestParseReadsCellsAndRefusesOthers(t *testing.T) {
	nb := mustParse(t, jupyter)
	if len(nb.Cells) != 4 || nb.Cells[1].Source != "%matplotlib inline\nimport torch\nx = \"naïve\\t\" # ünïcode" ||
		nb.Cells[3].Source != "y = torch.zeros(3)\nprint(y)" || nb.Cells[0].Kind != "markdown" || nb.Minor != 5 {
		t.Errorf("cells: %+v", nb.Cells)
	}
	for raw, want := range map[string]string{
		`{"cells": [], "metadata": {"kernelspec": {"language": "R"}}, "nbformat": 4, "nbformat_minor": 2}`: "not a Python notebook",
		`{"worksheets": [], "nbformat": 3, "cells": []}`:                                                   "nbformat 3",
		`{"cells": [`: "invalid JSON",
		`[1, 2]`:      "not a JSON object",
		`{"nbformat": 4, "cells": [{"cell_type": "code", "source": [1]}]}`: "neither a string",
		`{"nbformat": 4, "cells": [3]}`:                                    "not an object",
		`{"a": 1}`:                                                         "no nbformat",
	} {
		if _, err := Parse("x.ipynb", []byte(raw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", raw, err, want)
		}
	}
}

func TestParseMatchesKeysAsJupyterDoes(t *testing.T) {
	// Exact keys, the last of repeated ones: a "Source" is not the source.
	nb := mustParse(t, `{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["x = 1"], "Source": ["y = 2"], "source": ["a = 1\n", "", "b = 2"]}]}`)
	if nb.Cells[0].Source != "a = 1\nb = 2" {
		t.Fatalf("source %q", nb.Cells[0].Source)
	}
	// Items that are not one line each are re-encoded, never misaligned.
	cells := append([]Cell(nil), nb.Cells...)
	cells[0].Source = "a = 1\nb = 3"
	out, err := nb.Render(cells)
	if err != nil {
		t.Fatal(err)
	}
	if back := mustParse(t, string(out)); back.Cells[0].Source != cells[0].Source {
		t.Errorf("read back %q from %s", back.Cells[0].Source, out)
	}
}

func TestMaskKeepsLinesAndLeavesStringsAlone(t *testing.T) {
	src := "!pip install x\n" +
		"files = !ls\n" +
		"import torch\n" +
		"torch.zeros?\n" +
		"for i in range(2):\n" +
		"    %time f(i)\n" +
		"s = \"\"\"\n" +
		"!not shell\n" +
		"%s\n" +
		"\"\"\"\n" +
		"t = (1,\n" +
		"  2)\n" +
		"%load_ext cudf.pandas\n" +
		"%config InlineBackend.figure_format = 'svg' \\\n" +
		"   continued\n" +
		"x = a % b"
	var got []string
	for _, l := range maskCell(src) {
		got = append(got, strings.TrimSuffix(l.text, "\n"))
	}
	want := []string{"#", "#", "import torch", "#", "for i in range(2):", "    pass", `s = """`, "!not shell", "%s", `"""`,
		"t = (1,", "  2)", CudfPandasPython, "#", "   #", "x = a % b"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("masked:\n got %q\nwant %q", got, want)
	}
	m := Build([]Cell{{Kind: "code", Source: src}, {Kind: "code", Source: "%%bash\necho hi\n"}, {Kind: "code", Source: "y = 1"}})
	f := m.Parse("t.ipynb")
	if f.HasSyntaxErrors() {
		t.Fatalf("masked module does not parse: %s\n%s", f.SyntaxError(), m.Src)
	}
	if strings.Contains(string(m.Src), "echo hi") || !strings.HasSuffix(string(m.Src), "x = a % b\ny = 1\n") {
		t.Errorf("module:\n%s", m.Src)
	}
}

// Line magics called without % (IPython's automagic) are IPython too,
// where they are no Python; where they parse as Python they stay Python.
func TestMaskAutomagic(t *testing.T) {
	src := "cd data\ncd ..\npip install xgboost\nmatplotlib inline\nls -l\ncd /data\ntime = 3\ncd = time\n"
	var got []string
	for _, l := range maskCell(src) {
		got = append(got, strings.TrimSuffix(l.text, "\n"))
	}
	want := []string{"#", "#", "#", "#", "ls -l", "cd /data", "time = 3", "cd = time"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("masked:\n got %q\nwant %q", got, want)
	}
}

func TestPositionsMapToCells(t *testing.T) {
	nb := mustParse(t, jupyter)
	m := Build(nb.Cells)
	off := strings.Index(string(m.Src), "torch.zeros")
	cell, line, col := m.Position(off)
	if cell != 3 || line != 0 || col != 4 {
		t.Errorf("torch.zeros at cell %d:%d:%d, want cell index 3, 0:4", cell, line, col)
	}
	off = strings.Index(string(m.Src), "# ünïcode")
	if cell, line, col := m.Position(off); cell != 1 || line != 2 || col != 14 {
		t.Errorf("comment at %d:%d:%d", cell, line, col)
	}
	if c, o, ok := m.Locate(len(m.Src)); !ok || c != 3 || o != len(nb.Cells[3].Source) {
		t.Errorf("end of module: cell %d offset %d", c, o)
	}
	if nb.RawLine(1, 2) != 31 || nb.RawLine(3, 1) != 48 {
		t.Errorf("raw lines %d %d", nb.RawLine(1, 2), nb.RawLine(3, 1))
	}
}

func TestAdmitDropsEditsAcrossCellsAndOnIPython(t *testing.T) {
	nb := mustParse(t, jupyter)
	m := Build(nb.Cells)
	f := m.Parse("t.ipynb")
	src := string(m.Src)
	x := strings.Index(src, "x = ")
	y := strings.Index(src, "y = ")
	fix := func(es ...rewrite.Edit) *rewrite.Fix { return &rewrite.Fix{Edits: es} }
	if m.Admit(f, fix(rewrite.Edit{Start: x, End: y + 1, New: ""})) != nil {
		t.Error("an edit spanning two cells was admitted")
	}
	if m.Admit(f, fix(rewrite.Edit{Start: 0, End: 1, New: "x"})) != nil {
		t.Error("an edit of an IPython line was admitted")
	}
	if m.Admit(f, fix(rewrite.Edit{Start: 1, End: 1, New: "x"})) != nil {
		t.Error("an insertion inside an IPython line was admitted")
	}
	ok := m.Admit(f, fix(rewrite.Edit{Start: x, End: x + 1, New: "z"}, rewrite.Edit{Start: y, End: y + 1, New: "w"}))
	if ok == nil {
		t.Fatal("a fix with one edit in each of two cells was refused")
	}
	cells, err := m.Apply(ok.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cells[1].Source, "%matplotlib inline\nimport torch\nz = ") || !strings.HasPrefix(cells[3].Source, "w = torch") {
		t.Errorf("cells: %q / %q", cells[1].Source, cells[3].Source)
	}
	out, err := nb.Render(cells)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(jupyter, `"x = \"naïve`, `"z = \"naïve`, 1), `"source": "y = torch`, `"source": "w = torch`, 1)
	if string(out) != want {
		t.Errorf("rendered:\n%s", rewrite.UnifiedDiff("t.ipynb", []byte(want), out))
	}
}

func TestTopInsertionGoesToTheFirstCellsImports(t *testing.T) {
	cells := []Cell{
		{Kind: "code", Source: "import torch\nfrom torch import nn", Index: 0},
		{Kind: "code", Source: "model = nn.Linear(2, 2)", Index: 1},
		{Kind: "code", Source: "import numpy as np\nx = np.zeros(2)", Index: 2},
	}
	m := Build(cells)
	f := m.Parse("t.ipynb")
	top := f.Model().InsertAfterImports(`torch.set_float32_matmul_precision("high")`)
	if !top.Top {
		t.Fatal("InsertAfterImports is not marked Top")
	}
	fx := m.Admit(f, &rewrite.Fix{Edits: []rewrite.Edit{top}})
	got, err := m.Apply(fx.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Source != "import torch\nfrom torch import nn\ntorch.set_float32_matmul_precision(\"high\")" || got[2].Source != cells[2].Source {
		t.Errorf("cells: %q %q", got[0].Source, got[2].Source)
	}
	// A statement that needs the late import stays after it.
	late := f.Model().InsertAfterImports("np.seterr(all='raise')")
	fx = m.Admit(f, &rewrite.Fix{Edits: []rewrite.Edit{late}})
	got, _ = m.Apply(fx.Edits)
	if got[0].Source != cells[0].Source || got[2].Source != "import numpy as np\nnp.seterr(all='raise')\nx = np.zeros(2)" {
		t.Errorf("cells: %q %q", got[0].Source, got[2].Source)
	}
}

func TestRenderKeepsShapeAndStyle(t *testing.T) {
	nb := mustParse(t, jupyter)
	cells := append([]Cell(nil), nb.Cells...)
	cells[2].Source = "a = 1\nb = \"é\"\n"             // was []
	cells[3].Source = "y = torch.zeros(3)\nprint(y)\n" // a string stays a string
	cells = append([]Cell{{Kind: "code", Source: "%load_ext cudf.pandas", Index: -1}}, cells...)
	out, err := nb.Render(cells)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"   \"source\": [\n    \"a = 1\\n\",\n    \"b = \\\"é\\\"\\n\"\n   ]\n",
		`"source": "y = torch.zeros(3)\nprint(y)\n"`,
		"  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"gpuopt-",
		"   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n    \"%load_ext cudf.pandas\"\n   ]\n  },\n  {\n   \"cell_type\": \"code\",\n   \"execution_count\": 1,",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("rendered notebook lacks %q:\n%s", want, s)
		}
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	back := mustParse(t, s)
	if len(back.Cells) != 5 || back.Cells[1].Source != "%load_ext cudf.pandas" || back.Cells[3].Source != cells[3].Source || back.Cells[4].Source != cells[4].Source {
		t.Errorf("read back: %+v", back.Cells)
	}
	// A file written with ensure_ascii keeps writing escapes; a 4.4
	// notebook gets no cell id.
	ascii := mustParse(t, strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(jupyter, "í", `\u00ed`), "✓", `\u2713`), "ï", `\u00ef`), "ü", `\u00fc`), `"nbformat_minor": 5`, `"nbformat_minor": 4`))
	c := append([]Cell(nil), ascii.Cells...)
	c[2].Source = "b = \"é😀\""
	c = append([]Cell{{Kind: "code", Source: "%load_ext cudf.pandas", Index: -1}}, c...)
	out, _ = ascii.Render(c)
	if !strings.Contains(string(out), `"b = \"\u00e9\ud83d\ude00\""`) || strings.Contains(string(out), "gpuopt-") {
		t.Errorf("ensure_ascii / 4.4 notebook:\n%s", out)
	}
}

func TestNewCellFixes(t *testing.T) {
	nb := mustParse(t, jupyter)
	once := func(f *rewrite.File) []rewrite.Finding {
		if strings.Contains(string(f.Src.Bytes), "import cudf.pandas") {
			return nil // the new cell's magic stands for the install
		}
		return []rewrite.Finding{{Code: "T001", Fix: &rewrite.Fix{Edits: []rewrite.Edit{{New: "%load_ext cudf.pandas", NewCell: true}}}}}
	}
	all := func(rewrite.Finding) bool { return true }
	res := Fix("t.ipynb", nb.Cells, once, all)
	if len(res.Cells) != 5 || res.Cells[1].Index != -1 || res.Cells[1].Source != "%load_ext cudf.pandas" || res.Applied["T001"] != 1 {
		t.Fatalf("CLI: cells %+v", res.Cells)
	}
	// An editor cannot add cells: the line goes on top of the first code
	// cell instead.
	res = FixInEditor("t.ipynb", nb.Cells, once, all)
	if len(res.Cells) != 4 || res.Cells[1].Source != "%load_ext cudf.pandas\n"+nb.Cells[1].Source {
		t.Fatalf("editor: cells %+v", res.Cells)
	}
}

func TestRenderMinifiedAndCompact(t *testing.T) {
	for _, raw := range []string{
		`{"cells":[{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["import torch\n","x = 1"]},{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":[]}],"metadata":{},"nbformat":4,"nbformat_minor":4}`,
		"{\n  \"cells\": [\n    {\n      \"cell_type\": \"code\",\n      \"execution_count\": null,\n      \"metadata\": {},\n      \"outputs\": [],\n      \"source\": [\"import torch\\n\", \"x = 1\"]\n    },\n    {\"cell_type\": \"code\", \"execution_count\": null, \"metadata\": {}, \"outputs\": [], \"source\": []}\n  ],\n  \"metadata\": {},\n  \"nbformat\": 4,\n  \"nbformat_minor\": 4\n}\n",
	} {
		nb := mustParse(t, raw)
		cells := append([]Cell{{Kind: "code", Source: "%load_ext cudf.pandas", Index: -1}}, nb.Cells...)
		cells[1].Source = "import torch\nx = 2\ny = 3"
		cells[2].Source = "z = 1\n"
		out, err := nb.Render(cells)
		if err != nil {
			t.Fatal(err)
		}
		back := mustParse(t, string(out))
		if len(back.Cells) != 3 || back.Cells[0].Source != "%load_ext cudf.pandas" || back.Cells[1].Source != cells[1].Source || back.Cells[2].Source != "z = 1\n" {
			t.Errorf("read back %+v from:\n%s", back.Cells, out)
		}
		if strings.Contains(raw, "\n") != strings.Contains(string(out), "\n") {
			t.Errorf("layout changed:\n%s", out)
		}
	}
}

// TestLeadingIndentCell: IPython removes a cell's first-line indentation
// from its lines before running it (leading_indent), so such a cell is no
// syntax error. It is analysed dedented, its positions map back to the
// indented cell, and it is never rewritten.
func TestLeadingIndentCell(t *testing.T) {
	cells := []Cell{
		{Kind: "code", Source: "import torch\n"},
		{Kind: "code", Source: "    model.fit(X,\n              y)\n    z = torch.zeros(3)\n"},
		{Kind: "code", Source: "  x = (1,\n"}, // dedented, still broken
	}
	m := Build(cells)
	if len(m.Broken) != 1 || m.Broken[0].Cell != 2 {
		t.Fatalf("broken cells: %+v", m.Broken)
	}
	src := string(m.Src)
	if !strings.Contains(src, "\nmodel.fit(X,\n          y)\nz = torch.zeros(3)\n") {
		t.Errorf("module:\n%s", src)
	}
	off := strings.Index(src, "torch.zeros")
	if cell, line, col := m.Position(off); cell != 1 || line != 2 || col != 8 {
		t.Errorf("torch.zeros at cell %d:%d:%d, want 1:2:8", cell, line, col)
	}
	f := m.Parse("t.ipynb")
	if m.Admit(f, &rewrite.Fix{Edits: []rewrite.Edit{{Start: off, End: off + 5, New: "numpy"}}}) != nil {
		t.Error("an edit of a dedented cell was admitted")
	}
	if _, err := m.Apply([]rewrite.Edit{{Start: off, End: off + 5, New: "numpy"}}); err == nil {
		t.Error("an edit of a dedented cell was applied")
	}
}

// TestTimedCellsAreAnalysed: IPython runs a %%time or %%capture cell's body
// as Python in the notebook's namespace, so it is analysed (its magic line
// masked); a %%timeit body runs apart, and other cell magics are not
// Python: both are left out.
func TestTimedCellsAreAnalysed(t *testing.T) {
	cells := []Cell{
		{Kind: "code", Source: "%%time\nmodel.fit(X, y)\n"},
		{Kind: "code", Source: "%%capture out\nbst = train(p)\n"},
		{Kind: "code", Source: "%%timeit\nz = x @ y\n"},
		{Kind: "code", Source: "%%bash\nls -l\n"},
	}
	m := Build(cells)
	src := string(m.Src)
	if !strings.Contains(src, "model.fit(X, y)") || !strings.Contains(src, "bst = train(p)") {
		t.Errorf("timed cells left out:\n%s", src)
	}
	if strings.Contains(src, "x @ y") || strings.Contains(src, "ls -l") || strings.Contains(src, "%%") {
		t.Errorf("module:\n%s", src)
	}
	off := strings.Index(src, "model.fit")
	if cell, line, col := m.Position(off); cell != 0 || line != 1 || col != 0 {
		t.Errorf("model.fit at cell %d:%d:%d, want 0:1:0", cell, line, col)
	}
}
