package notebook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
)

// FuzzNotebookCheckAndFix turns arbitrary Python into a notebook (a cell
// per blank-line-separated block, IPython lines around them) and runs
// check and fix with every rule and unsafe fixes: nothing may panic, a
// module that parsed must still parse, IPython lines and cell count stay
// (but for cells the fixes add), and the written notebook reads back as
// the fixed cells.
func FuzzNotebookCheckAndFix(f *testing.F) {
	seeds, _ := filepath.Glob("../../corpus/*/*.py")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("import pandas as pd\nimport xgboost as xgb\n\ndf = pd.read_csv('x.csv')\n\nxgb.train({'device': 'cuda'}, xgb.DMatrix(df))\n")
	env := &patterns.Env{Versions: patterns.DefaultVersions, GPU: patterns.GPU{Name: "H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, CPUCount: 8}
	f.Fuzz(func(t *testing.T, src string) {
		type cell struct {
			CellType       string   `json:"cell_type"`
			ExecutionCount *int     `json:"execution_count"`
			Metadata       struct{} `json:"metadata"`
			Outputs        []any    `json:"outputs"`
			Source         []string `json:"source"`
		}
		magic := cell{CellType: "code", Source: []string{"%matplotlib inline\n", "!nvidia-smi"}, Outputs: []any{}}
		cells := []cell{magic}
		for _, block := range strings.Split(src, "\n\n") {
			cells = append(cells, cell{CellType: "code", Source: strings.SplitAfter(block, "\n"), Outputs: []any{}})
		}
		raw, err := json.MarshalIndent(map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 4}, "", " ")
		if err != nil {
			return
		}
		nb, err := notebook.Parse("fuzz.ipynb", raw)
		if err != nil {
			t.Fatalf("a generated notebook does not parse: %v", err)
		}
		mod := notebook.Build(nb.Cells)
		file := mod.Parse("fuzz.ipynb")
		for _, fd := range mod.Findings(file, patterns.Run(file, patterns.Selection{}, env)) {
			if fd.Code == patterns.InternalErrorCode {
				t.Fatal(fd.Message)
			}
			mod.Position(fd.Start)
		}
		res := notebook.Fix("fuzz.ipynb", nb.Cells, func(ff *rewrite.File) []rewrite.Finding { return patterns.Run(ff, patterns.Selection{}, env) },
			func(fd rewrite.Finding) bool { return fd.Fix != nil && fd.Fix.Applicability != rewrite.Hint })
		if file.HasSyntaxErrors() {
			if len(res.Applied) > 0 {
				t.Fatal("a notebook with syntax errors was rewritten")
			}
			return
		}
		if out := res.Module.Parse("fuzz.ipynb"); out.HasSyntaxErrors() {
			t.Fatalf("fix added a %s:\n%s", out.SyntaxError(), res.Module.Src)
		}
		broken := map[int]bool{}
		for _, b := range mod.Broken {
			broken[b.Cell] = true
		}
		kept := 0
		for _, c := range res.Cells {
			if c.Index >= 0 && broken[c.Index] && c.Source != nb.Cells[c.Index].Source {
				t.Fatalf("a cell with a syntax error was rewritten: %q", c.Source)
			}
			if c.Index >= 0 {
				kept++
				if c.Index == 0 && c.Source != nb.Cells[0].Source {
					t.Fatalf("the IPython cell was rewritten: %q", c.Source)
				}
			}
		}
		if kept != len(nb.Cells) {
			t.Fatalf("%d cells in, %d out", len(nb.Cells), kept)
		}
		out, err := nb.Render(res.Cells)
		if err != nil {
			t.Fatal(err)
		}
		back, err := notebook.Parse("fuzz.ipynb", out)
		if err != nil || len(back.Cells) != len(res.Cells) {
			t.Fatalf("the written notebook does not read back: %v", err)
		}
		for i := range back.Cells {
			if back.Cells[i].Source != res.Cells[i].Source {
				t.Fatalf("cell %d reads back %q, want %q", i, back.Cells[i].Source, res.Cells[i].Source)
			}
		}
	})
}
