package rewrite

import (
	"fmt"
	"sort"
	"strings"
)

// Applicability says how sure a fix is, ruff's three levels.
type Applicability int

const (
	// Safe fixes keep behaviour identical; `gpuopt fix` applies them.
	Safe Applicability = iota
	// Unsafe fixes are faster but may change numerics, determinism, RNG
	// streams or memory use; applied only with --unsafe-fixes.
	Unsafe
	// Hint fixes are suggestions a person must pick; never applied in batch.
	Hint
)

func (a Applicability) String() string {
	switch a {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	default:
		return "hint"
	}
}

// MarshalText makes applicability appear as "safe"/"unsafe"/"hint" in JSON.
func (a Applicability) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Edit replaces the bytes [Start, End) with New.
type Edit struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"content"`
	// Top marks an insertion of whole statements that belongs at the top
	// of the module, after its imports (an import, a global switch): a
	// script gets it at Start; a notebook moves it into its first code
	// cell, after that cell's imports, where the names it uses allow.
	Top bool `json:"-"`
	// NewCell marks an insertion that a notebook turns into a code cell of
	// its own, placed before its first code cell: New is the cell's source
	// (IPython syntax allowed). Rules make one only for notebooks
	// (IsNotebook); anywhere else it would not parse and is dropped.
	NewCell bool `json:"-"`
}

// IsNotebook reports whether path names a Jupyter notebook, whose code
// cells the engine analyses as one module (rewrite/notebook).
func IsNotebook(path string) bool { return strings.HasSuffix(path, ".ipynb") }

// Fix is a set of edits that only make sense together.
type Fix struct {
	Applicability Applicability `json:"applicability"`
	Message       string        `json:"message"`
	Edits         []Edit        `json:"edits"`
}

// span returns the smallest range covering all edits.
func (f *Fix) span() (start, end int) {
	start, end = f.Edits[0].Start, f.Edits[0].End
	for _, e := range f.Edits[1:] {
		start, end = min(start, e.Start), max(end, e.End)
	}
	return start, end
}

// Severity orders findings for editors.
type Severity int

const (
	// Warning is a performance problem with a clear remedy.
	Warning Severity = iota
	// Information is advice whose pay-off depends on the workload.
	Information
	// Error is a real bug (a wrong result), not only a slow one.
	Error
)

// Finding is one reported problem: a rule code, a message, the byte range
// it covers and, where gpuopt can rewrite it, a fix.
type Finding struct {
	Code     string
	Message  string
	Start    int
	End      int
	Severity Severity
	Fix      *Fix
}

// ApplyEdits applies non-overlapping edits to src and returns the new bytes.
// Edits must not overlap; they may come in any order.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	out := make([]byte, 0, len(src))
	pos := 0
	for _, e := range sorted {
		if e.Start < pos || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) overlaps or leaves the file", e.Start, e.End)
		}
		out = append(out, src[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	return append(out, src[pos:]...), nil
}

// selectFixes picks fixes in source order, skipping any that overlap one
// already picked (it is retried on the next pass) or touch a syntax error.
func selectFixes(f *File, fixes []*Fix) []*Fix {
	sort.SliceStable(fixes, func(i, j int) bool {
		si, _ := fixes[i].span()
		sj, _ := fixes[j].span()
		return si < sj
	})
	var picked []*Fix
	var taken [][2]int
	for _, fx := range fixes {
		if len(fx.Edits) == 0 {
			continue
		}
		ok := true
		for _, e := range fx.Edits {
			if f.InError(e.Start, e.End) {
				ok = false
				break
			}
			for _, t := range taken {
				if e.Start < t[1] && t[0] < e.End || (e.Start == e.End && e.Start == t[0] && t[0] == t[1]) {
					ok = false
				}
			}
		}
		// Insertions that land on the same point as another fix's edit are
		// ambiguous in order: leave them for the next pass.
		if !ok {
			continue
		}
		for _, e := range fx.Edits {
			taken = append(taken, [2]int{e.Start, e.End})
		}
		picked = append(picked, fx)
	}
	return picked
}

// Analyzer produces findings for a parsed file. The fix loop calls it once
// per pass.
type Analyzer func(*File) []Finding

// FixResult is the outcome of FixFile.
type FixResult struct {
	Output []byte
	// File is the parse of Output (the input file when nothing applied).
	File    *File
	Applied map[string]int // fixes applied per rule code
	Passes  int
	// Dropped counts fixes refused because applying them added a syntax error.
	Dropped int
}

// MaxPasses bounds the fixed-point loop; rules whose fixes keep producing new
// findings are a bug, and this keeps such a bug from hanging a batch run.
const MaxPasses = 10

// FixFile applies the fixes that want accepts, pass after pass, re-parsing
// and re-analysing each time until no fix applies. A pass that would add a
// syntax error falls back to applying its fixes one by one and drops each
// that breaks the file. A file that already has syntax errors is returned
// unchanged.
func FixFile(f *File, analyze Analyzer, want func(Finding) bool) FixResult {
	return FixFileWith(f, analyze, want, nil)
}

// Applier applies edits (non-overlapping, in any order) to the file f and
// parses the result. The default is ApplyEdits on f's bytes and Parse; a
// notebook applies them cell by cell and parses its new module.
type Applier func(f *File, edits []Edit) (*File, error)

// FixFileWith is FixFile with the edits applied by apply (nil: the
// default, ApplyEdits and Parse).
func FixFileWith(f *File, analyze Analyzer, want func(Finding) bool, apply Applier) FixResult {
	if apply == nil {
		apply = applyEdits
	}
	res := FixResult{Output: f.Src.Bytes, File: f, Applied: map[string]int{}}
	if f.HasSyntaxErrors() {
		return res
	}
	refused := map[string]bool{} // fixes known to break the file, by content
	for res.Passes < MaxPasses {
		var fixes []*Fix
		codeOf := map[*Fix]string{}
		for _, fd := range analyze(f) {
			if fd.Fix == nil || !want(fd) || refused[fixKey(fd.Fix)] {
				continue
			}
			fixes = append(fixes, fd.Fix)
			codeOf[fd.Fix] = fd.Code
		}
		picked := selectFixes(f, fixes)
		if len(picked) == 0 {
			break
		}
		res.Passes++
		next, ok := applyAll(f, picked, apply)
		if !ok {
			// Find the culprits one at a time.
			next = nil
			cur := f
			for _, fx := range picked {
				cand, ok := applyAll(cur, []*Fix{fx}, apply)
				if !ok {
					refused[fixKey(fx)] = true
					res.Dropped++
					continue
				}
				cur = cand
				res.Applied[codeOf[fx]]++
			}
			if cur == f {
				continue
			}
			f = cur
			continue
		}
		for _, fx := range picked {
			res.Applied[codeOf[fx]]++
		}
		f = next
	}
	res.Output, res.File = f.Src.Bytes, f
	return res
}

// applyAll applies fixes and re-parses; ok is false if the result has a
// syntax error the input did not.
func applyAll(f *File, fixes []*Fix, apply Applier) (*File, bool) {
	var edits []Edit
	for _, fx := range fixes {
		edits = append(edits, fx.Edits...)
	}
	nf, err := apply(f, edits)
	if err != nil {
		return f, false
	}
	return nf, !nf.HasSyntaxErrors()
}

func applyEdits(f *File, edits []Edit) (*File, error) {
	out, err := ApplyEdits(f.Src.Bytes, edits)
	if err != nil {
		return nil, err
	}
	return Parse(f.Src.Path, out), nil
}

func fixKey(fx *Fix) string {
	return fmt.Sprint(fx.Edits)
}

// DropsComment reports whether applying fx would delete a comment: a
// comment inside a replaced range whose text none of the fix's new texts
// carries. Such fixes are withheld (gpuopt keeps every comment).
func (f *File) DropsComment(fx *Fix) bool {
	if fx == nil {
		return false
	}
	comments := f.OfType("comment")
	for _, e := range fx.Edits {
		if e.End <= e.Start {
			continue
		}
		i := sort.Search(len(comments), func(i int) bool { return comments[i].End > e.Start })
		for ; i < len(comments) && comments[i].Start < e.End; i++ {
			if !fixCarries(fx, comments[i].Text()) {
				return true
			}
		}
	}
	return false
}

// fixCarries reports whether one of fx's edits writes text.
func fixCarries(fx *Fix, text string) bool {
	for _, e := range fx.Edits {
		if strings.Contains(e.New, text) {
			return true
		}
	}
	return false
}
