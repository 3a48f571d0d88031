package notebook

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzNotebook feeds arbitrary bytes to the notebook reader. Whatever
// parses must render back byte for byte when nothing changes, map every
// module offset into its cell, and read back exactly the sources it was
// given after a change to every code cell.
func FuzzNotebook(f *testing.F) {
	f.Add([]byte(jupyter))
	f.Add([]byte(`{"cells":[{"cell_type":"code","source":"%%time\nx=1","metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":4}`))
	paths, _ := filepath.Glob("../../corpus/*/*.ipynb")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := Parse("f.ipynb", data)
		if err != nil {
			return
		}
		out, err := nb.Render(nb.Cells)
		if err != nil || string(out) != string(data) {
			t.Fatalf("unchanged notebook rendered differently (%v)", err)
		}
		m := Build(nb.Cells)
		for off := 0; len(m.Src) > 0 && off <= len(m.Src); off++ {
			cell, cellOff, ok := m.Locate(off)
			if !ok || cellOff < 0 || cellOff > len(nb.Cells[cell].Source) || nb.Cells[cell].Kind != "code" {
				t.Fatalf("offset %d maps to cell %d offset %d (%v)", off, cell, cellOff, ok)
			}
		}
		cells := append([]Cell(nil), nb.Cells...)
		for i := range cells {
			if cells[i].Kind == "code" {
				cells[i].Source += "\nz = \"é\\\"\t\"\n"
			}
		}
		out, err = nb.Render(cells)
		if err != nil {
			return // a cell without a source value
		}
		back, err := Parse("f.ipynb", out)
		if err != nil {
			t.Fatalf("changed notebook does not parse: %v\n%s", err, out)
		}
		for i := range cells {
			if back.Cells[i].Source != cells[i].Source {
				t.Fatalf("cell %d reads back %q, want %q", i, back.Cells[i].Source, cells[i].Source)
			}
		}
	})
}
