package patterns

import (
	"fmt"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CudfReadForXGBoost is CUDF002.
var CudfReadForXGBoost = &Rule{
	Code:      "CUDF002",
	Name:      "cudf-read-for-xgboost",
	Title:     "Read XGBoost's training data with cudf.read_*",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"pandas"},
	Names:     []string{"read_csv", "read_parquet", "read_orc"}, // the readers this rule follows to XGBoost
	Check:     checkCudfReadForXGBoost,
}

func init() { Register(CudfReadForXGBoost) }

// cudfReaderKeywords are keywords that cudf.read_* take as pandas does.
var cudfReaderKeywords = map[string]bool{
	"sep": true, "delimiter": true, "header": true, "names": true, "usecols": true, "dtype": true,
	"nrows": true, "skiprows": true, "index_col": true, "na_values": true, "parse_dates": true,
	"compression": true, "columns": true, "filters": true, "filepath_or_buffer": true, "path": true,
}

func checkCudfReadForXGBoost(p *Pass) {
	m := p.Model
	if !m.Imports("xgboost") || cudfPandasInstalled(p) || xgbChoosesCPU(p) {
		return
	}
	for _, call := range p.File.OfType("call") {
		reader, ok := pandasReader(m, call)
		if !ok || (reader != "read_csv" && reader != "read_parquet" && reader != "read_orc") {
			continue
		}
		ff := followFrame(p, call)
		if len(ff.XGBoost) == 0 || ff.Other != "" {
			continue // a cuDF frame would break the other consumers (scikit-learn wants host data)
		}
		first := ff.XGBoost[0]
		msg := fmt.Sprintf("this frame feeds XGBoost (%s, line %d): read it with cudf.%s so it is parsed and kept in GPU memory, and XGBoost with device=\"cuda\" reads it without a host copy",
			oneLine(first.ChildByField("function").Text()), p.File.Src.LineOf(first.Start)+1, reader)
		fix, why := cudfReadFix(p, call, reader, ff)
		if fix == nil {
			msg += " (no code action: " + why + ")"
		}
		p.Report(call, msg, fix)
	}
}

// oneLine shortens code quoted in a message to its first line.
func oneLine(code string) string {
	if i := strings.IndexByte(code, '\n'); i >= 0 {
		return strings.TrimSpace(code[:i]) + " …"
	}
	return code
}

// cudfReadFix returns the code action that reads with cudf.<reader>, or
// nil and why not.
func cudfReadFix(p *Pass, call *rewrite.Node, reader string, ff *frameFlow) (*rewrite.Fix, string) {
	if ff.Plain != "" {
		return nil, "the frame is also used in " + ff.Plain
	}
	for _, a := range call.ChildByField("arguments").NamedChildren() {
		switch a.Type {
		case "keyword_argument":
			if !cudfReaderKeywords[a.ChildByField("name").Text()] {
				return nil, "cudf." + reader + " may not take " + a.ChildByField("name").Text() + "="
			}
		case "list_splat", "dictionary_splat":
			return nil, "arguments are passed with * or **"
		}
	}
	m := p.Model
	fn := call.ChildByField("function")
	var edits []rewrite.Edit
	name, ok := m.LocalName(call, "cudf")
	if !ok {
		if p.File.Spells("cudf") {
			return nil, "the name cudf is taken"
		}
		name = "cudf"
		edits = append(edits, m.InsertAfterImports("import cudf"))
	}
	edits = append(edits, rewrite.Edit{Start: fn.Start, End: fn.End, New: name + "." + reader})
	return Fix(rewrite.Hint, "Read with cudf."+reader, edits...), ""
}

// xgbChoosesCPU reports a file whose XGBoost parameters choose the CPU
// explicitly (`"device": "cpu"`) and name no GPU anywhere (no cuda device,
// no gpu_hist): its frames are for a CPU training, where a cuDF frame
// would only add a copy back to the host.
func xgbChoosesCPU(p *Pass) bool {
	cpu := false
	for _, g := range xgbParamGroups(p) {
		for _, e := range g.Entries {
			v, ok := rewrite.StringValue(e.Value)
			if !ok {
				continue
			}
			v = strings.ToLower(v)
			switch {
			case e.Key == "device" && strings.HasPrefix(v, "cpu"):
				cpu = true
			case e.Key == "device" && (strings.HasPrefix(v, "cuda") || strings.HasPrefix(v, "gpu")),
				e.Key == "tree_method" && strings.HasPrefix(v, "gpu"):
				return false
			}
		}
	}
	return cpu
}
