package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// A call that also passes **kwargs may already name device: adding
// device= would raise "got multiple values for keyword argument 'device'"
// at run time (issue 16 item 8). The finding stays, without a fix.
func TestXGB003NoKeywordAddedNextToASplat(t *testing.T) {
	for src, wantFix := range map[string]bool{
		"import xgboost as xgb\nm = xgb.XGBClassifier(gpu_id=0, **{\"device\": \"cuda\"})\n": false,
		"import xgboost as xgb\nkw = {}\nm = xgb.XGBClassifier(gpu_id=0, **kw)\n":            false,
		"import xgboost as xgb\nm = xgb.XGBClassifier(*args, gpu_id=0)\n":                    true,
		"import xgboost as xgb\nm = xgb.XGBClassifier(gpu_id=0)\n":                           true,
	} {
		f := rewrite.Parse("x.py", []byte(src))
		var got *rewrite.Finding
		for _, fd := range Run(f, Selection{Select: []string{"XGB003"}}, nil) {
			if fd.Code == "XGB003" {
				got = &fd
			}
		}
		if got == nil {
			t.Errorf("%q: no XGB003 finding", src)
		} else if (got.Fix != nil) != wantFix {
			t.Errorf("%q: fix %v, want a fix: %v", src, got.Fix, wantFix)
		} else if got.Fix != nil && strings.Count(got.Fix.Edits[0].New, "device") != 1 {
			t.Errorf("%q: %+v", src, got.Fix.Edits)
		}
		f.Release()
	}
}
