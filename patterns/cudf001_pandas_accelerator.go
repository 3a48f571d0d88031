package patterns

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// PandasAccelerator is CUDF001.
var PandasAccelerator = &Rule{
	Code:      "CUDF001",
	Name:      "cudf-pandas-accelerator",
	Title:     "Run a pandas script on large data with cuDF's pandas accelerator",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"pandas"},
	Names:     []string{"read_csv", "read_parquet", "read_feather", "read_orc", "read_json"}, // the finding is a pandas reader call (pandasReaders)
	Check:     checkPandasAccelerator,
}

func init() { Register(PandasAccelerator) }

// cudfLargeDataBytes is the size on disk from which CUDF001 calls a data
// file large (the guides' "DataFrames > 1 GB").
const cudfLargeDataBytes = 1_000_000_000

// cudfMaxWalk bounds the files summed for a dataset folder.
const cudfMaxWalk = 10_000

func checkPandasAccelerator(p *Pass) {
	v := p.Env.Gate(Need{})
	if v.Silent() || cudfPandasInstalled(p) || !pandasImportedAtModule(p) {
		return
	}
	if bs := p.Model.Module.Bindings["cudf"]; len(bs) > 0 {
		for _, b := range bs {
			if b.Kind != rewrite.ImportBinding || !strings.HasPrefix(b.Qualified, "cudf") {
				return // the name cudf means something else here
			}
		}
	}
	m := p.Model
	script := hasMainGuard(p)
	for _, call := range p.File.OfType("call") {
		_, ok := pandasReader(m, call)
		if !ok || !script && m.ScopeOf(call) != m.Module {
			continue
		}
		callee := call.ChildByField("function").Text()
		var msg string
		if path, size, ok := readerDataSize(p, call); ok && size >= cudfLargeDataBytes {
			msg = fmt.Sprintf("%s reads %s (%s): run this pandas script on the GPU with cuDF's pandas accelerator", callee, path, formatBytes(size))
		} else if ff := followFrame(p, call); ff.GPUTraining != "" {
			msg = fmt.Sprintf("the frame %s reads feeds %s: run this pandas script on the GPU with cuDF's pandas accelerator", callee, ff.GPUTraining)
		} else {
			continue
		}
		var fix *rewrite.Fix
		if rewrite.IsNotebook(p.File.Src.Path) {
			// In Jupyter, cuDF's own way in is its IPython extension, loaded
			// by a first code cell.
			msg += " (%load_ext cudf.pandas in a code cell before pandas is imported)"
			e := rewrite.Edit{New: "%load_ext cudf.pandas", NewCell: true}
			fix = v.Downgrade(Fix(rewrite.Unsafe, "Load cudf.pandas in a new first code cell", e))
		} else {
			msg += " (import cudf.pandas; cudf.pandas.install() before pandas is imported, or run it with python -m cudf.pandas)"
			if e, ok := cudfInstallEdit(p); ok {
				fix = v.Downgrade(Fix(rewrite.Unsafe, "Install cudf.pandas before the imports", e))
			}
		}
		if v.Hint {
			msg += " (" + v.Assumption + ")"
		}
		p.Report(call, msg, fix)
		return // one finding per script
	}
}

// cudfPandasInstalled reports a file that already imports cudf.pandas or
// calls its install().
func cudfPandasInstalled(p *Pass) bool {
	m := p.Model
	for _, bs := range m.Module.Bindings {
		for _, b := range bs {
			if b.Kind == rewrite.ImportBinding && (b.Qualified == "cudf.pandas" || strings.HasPrefix(b.Qualified, "cudf.pandas.")) {
				return true
			}
		}
	}
	for _, n := range p.File.OfType("import_statement") {
		if strings.Contains(n.Text(), "cudf.pandas") {
			return true
		}
	}
	for _, n := range p.File.OfType("import_from_statement") {
		if mn := n.ChildByField("module_name"); mn != nil && strings.HasPrefix(mn.Text(), "cudf") && strings.Contains(n.Text(), "pandas") {
			return true
		}
	}
	if len(m.CallsTo("cudf.pandas.install")) > 0 {
		return true
	}
	return false
}

// pandasImportedAtModule reports a top-level import of pandas.
func pandasImportedAtModule(p *Pass) bool {
	for _, bs := range p.Model.Module.Bindings {
		for _, b := range bs {
			if b.Kind == rewrite.ImportBinding && (b.Qualified == "pandas" || strings.HasPrefix(b.Qualified, "pandas.")) &&
				b.Stmt != nil && b.Stmt.Parent == p.File.Root {
				return true
			}
		}
	}
	return false
}

// hasMainGuard reports an `if __name__ == "__main__":` at module level.
func hasMainGuard(p *Pass) bool {
	for _, c := range p.File.Root.Children {
		if isMainGuard(c) {
			return true
		}
	}
	return false
}

// isMainGuard reports an `if __name__ == "__main__":` statement.
func isMainGuard(n *rewrite.Node) bool {
	if n.Type != "if_statement" {
		return false
	}
	cond := n.ChildByField("condition")
	return cond != nil && strings.Contains(cond.Text(), "__name__") && strings.Contains(cond.Text(), "__main__")
}

// cudfInstallEdit inserts the install lines before the module's first
// statement that is not its docstring or a `from __future__` import.
func cudfInstallEdit(p *Pass) (rewrite.Edit, bool) {
	src := p.File.Src
	stmts := rewrite.Statements(p.File.Root)
	for i, s := range stmts {
		if s.Type == "comment" || s.Type == "future_import_statement" {
			continue
		}
		if i == 0 && s.Type == "expression_statement" && len(s.NamedChildren()) == 1 && s.NamedChildren()[0].Type == "string" {
			continue // docstring
		}
		line := src.LineOf(s.Start)
		if src.LineStart(line) != s.Start {
			return rewrite.Edit{}, false // `x = 1; import pandas` style
		}
		at := s.Start
		nl := src.LineEnding
		return rewrite.Edit{Start: at, End: at, New: "import cudf.pandas" + nl + "cudf.pandas.install()" + nl}, true
	}
	return rewrite.Edit{}, false
}

// readerDataSize resolves the reader's path argument (a string literal or
// a name assigned one once) against the checked file's folder and returns
// its size on disk (summed over a folder's files). ok is false when the
// path is not literal, not local, or not there.
func readerDataSize(p *Pass, call *rewrite.Node) (string, int64, bool) {
	arg := rewrite.Arg(call, 0, "filepath_or_buffer")
	if arg == nil {
		arg = rewrite.KeywordValue(call, "path")
	}
	if arg == nil {
		return "", 0, false
	}
	if arg.Type == "identifier" {
		arg = p.Model.ValueOf(arg)
		if arg == nil {
			return "", 0, false
		}
	}
	lit, ok := rewrite.StringValue(arg)
	if !ok || lit == "" || strings.Contains(lit, "://") || strings.ContainsAny(lit, "*?[~") {
		return "", 0, false
	}
	full := lit
	if !filepath.IsAbs(lit) {
		// Relative paths are relative to the checked file's folder; a file
		// that is not on disk (stdin, an unsaved buffer) has none.
		self := p.File.Src.Path
		if st, err := os.Stat(self); self == "" || err != nil || !st.Mode().IsRegular() {
			return "", 0, false
		}
		full = filepath.Join(filepath.Dir(self), lit)
	}
	st, err := os.Stat(full)
	if err != nil {
		return "", 0, false
	}
	if st.Mode().IsRegular() {
		return lit, st.Size(), true
	}
	if !st.IsDir() {
		return "", 0, false
	}
	var total int64
	count := 0
	filepath.WalkDir(full, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || count >= cudfMaxWalk {
			return filepath.SkipAll
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
			count++
		}
		return nil
	})
	return lit, total, true
}

// formatBytes writes a size in GB (or MB below 1 GB), decimal units.
func formatBytes(n int64) string {
	if n >= 1_000_000_000 {
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	}
	return fmt.Sprintf("%.0f MB", float64(n)/1e6)
}
