package patterns

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TestNamesGateOnlySilentRules runs, on every Python file of the corpus
// (and of $GPUOPT_GATE_DIR, for checking the gate against a real
// repository), each rule that its Names gate skips, and fails if the rule
// would have reported anything: the gate must only save time.
func TestNamesGateOnlySilentRules(t *testing.T) {
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, CPUCount: 16}
	roots := []string{"../corpus"}
	if dir := os.Getenv("GPUOPT_GATE_DIR"); dir != "" {
		roots = append(roots, dir)
	}
	files, skipped := 0, 0
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".py" {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files++
			f := rewrite.Parse(path, src)
			for _, r := range All() {
				if len(r.Names) == 0 || f.SpellsAny(r.Names) {
					continue
				}
				skipped++
				for _, fd := range run(f, Selection{Select: []string{r.Code}}, env, false) {
					line, _ := f.Src.Position(fd.Start)
					t.Errorf("%s:%d: %s found %q although the file spells none of its Names %s",
						path, line+1, fd.Code, fd.Message, strings.Join(r.Names, ", "))
				}
			}
			return nil
		})
	}
	if files < 100 || skipped == 0 {
		t.Fatalf("checked %d files, skipped %d rules: the corpus did not exercise the gate", files, skipped)
	}
}
