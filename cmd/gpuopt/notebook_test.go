package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readCorpus returns a corpus file's content.
func readCorpus(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "corpus", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNotebookCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	nb := readCorpus(t, "SYNC002/notebook_cells.ipynb")
	write(t, filepath.Join(dir, "nb.ipynb"), nb)
	out, _, code := run(t, dir, "", "check", "--target-gpu", "h100", "nb.ipynb")
	if code != 1 || !strings.Contains(out, "nb.ipynb:cell 3:8:14: SYNC002 ") || !strings.Contains(out, "nb.ipynb:cell 1:5:7: OPT001 [*] ") {
		t.Errorf("exit %d, text output:\n%s", code, out)
	}
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--output-format", "json", "nb.ipynb")
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	found := false
	for _, f := range findings {
		if f["code"] == "SYNC002" {
			found = true
			if f["cell"] != 3.0 || f["line"] != 8.0 || f["column"] != 14.0 || f["path"] != "nb.ipynb" {
				t.Errorf("SYNC002 JSON: %v", f)
			}
			edits := f["fix"].(map[string]any)["edits"].([]any)
			if e := edits[0].(map[string]any); e["cell"] != 3.0 {
				t.Errorf("edit without its cell: %v", e)
			}
		}
	}
	if !found {
		t.Errorf("no SYNC002 in %s", out)
	}
	write(t, filepath.Join(dir, "feat.ipynb"), readCorpus(t, "CUDF001/notebook.ipynb"))
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--output-format", "json", "feat.ipynb")
	if !strings.Contains(out, `"new_cell": true,
          "content": "%load_ext cudf.pandas"`) {
		t.Errorf("CUDF001's new cell in JSON:\n%s", out)
	}
	// GitHub annotations and SARIF point at the .ipynb line holding the
	// cell line, and name the cell position in the message.
	rawLine := 1 + strings.Count(nb[:strings.Index(nb, `"    total += loss.item()`)], "\n")
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--output-format", "github", "nb.ipynb")
	want := "file=nb.ipynb,line=" + itoa(rawLine) + ",col=1,endLine=" + itoa(rawLine) + ",endColumn=1::SYNC002 cell 3:8:14: "
	if !strings.Contains(out, want) {
		t.Errorf("github output lacks %q:\n%s", want, out)
	}
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--output-format", "sarif", "nb.ipynb")
	if !strings.Contains(out, `"startLine": `+itoa(rawLine)) || !strings.Contains(out, `"text": "cell 3:8:14: .item()`) {
		t.Errorf("sarif:\n%s", out)
	}
	// stdin, named as a notebook.
	out, _, code = run(t, dir, nb, "check", "--target-gpu", "h100", "-", "--stdin-filename", "x.ipynb")
	if code != 1 || !strings.Contains(out, "x.ipynb:cell 3:8:14: SYNC002") {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestNotebookFixDiffAppliesWithGitAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	sources := map[string]string{
		"nbs/train.ipynb": readCorpus(t, "SYNC002/notebook_cells.ipynb"),
		"nbs/feat.ipynb":  readCorpus(t, "CUDF001/notebook.ipynb"),
		"nbs/clean.ipynb": readCorpus(t, "XGB002/notebook_clean.ipynb"),
	}
	for name, content := range sources {
		write(t, filepath.Join(dir, name), content)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	diff, _, code := run(t, dir, "", "fix", "--diff", "--unsafe-fixes", "--target-gpu", "h100", ".")
	if code != 1 || !strings.Contains(diff, "--- a/nbs/train.ipynb") || !strings.Contains(diff, `+    "%load_ext cudf.pandas"`) || strings.Contains(diff, "clean.ipynb") {
		t.Fatalf("exit %d diff:\n%s", code, diff)
	}
	check := exec.Command("git", "-C", dir, "apply", "--check", "-")
	check.Stdin = strings.NewReader(diff)
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("git apply --check: %v %s\n%s", err, out, diff)
	}
	apply := exec.Command("git", "-C", dir, "apply", "-")
	apply.Stdin = strings.NewReader(diff)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v %s", err, out)
	}
	viaGit := map[string]string{}
	for name, content := range sources {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		viaGit[name] = string(b)
		write(t, filepath.Join(dir, name), content)
	}
	if _, errOut, _ := run(t, dir, "", "fix", "--unsafe-fixes", "--target-gpu", "h100", "nbs"); !strings.Contains(errOut, "Fixed") {
		t.Errorf("summary: %s", errOut)
	}
	for name := range sources {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if string(b) != viaGit[name] {
			t.Errorf("%s: fix in place differs from the applied diff", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "nbs/clean.ipynb")); string(b) != sources["nbs/clean.ipynb"] {
		t.Error("a notebook with nothing to fix was rewritten")
	}
	if diff, errOut, _ := run(t, dir, "", "fix", "--diff", "--unsafe-fixes", "--target-gpu", "h100", "nbs"); diff != "" || !strings.Contains(errOut, "No fixes applied") {
		t.Errorf("a second fix changes something:\n%s\n%s", diff, errOut)
	}
}

func TestNotebookWalkAndBadNotebooks(t *testing.T) {
	dir := t.TempDir()
	nb := readCorpus(t, "SYNC002/notebook_cells.ipynb")
	write(t, filepath.Join(dir, "a", "nb.ipynb"), nb)
	write(t, filepath.Join(dir, "a", ".ipynb_checkpoints", "nb-checkpoint.ipynb"), nb)
	write(t, filepath.Join(dir, "b", "train.py"), xgbSource)
	write(t, filepath.Join(dir, "bad.ipynb"), `{"cells": [`)
	write(t, filepath.Join(dir, "r.ipynb"), `{"cells": [{"cell_type": "code", "source": "library(torch)", "metadata": {}, "outputs": [], "execution_count": null}], "metadata": {"kernelspec": {"language": "R"}}, "nbformat": 4, "nbformat_minor": 4}`)
	out, errOut, _ := run(t, dir, "", "check", "--target-gpu", "h100", ".")
	if !strings.Contains(out, "a/nb.ipynb:cell 3:8:14: SYNC002") || !strings.Contains(out, "b/train.py:") || strings.Contains(out, "checkpoint") {
		t.Errorf("walk:\n%s", out)
	}
	if !strings.Contains(errOut, "bad.ipynb: not a notebook (invalid JSON") || !strings.Contains(errOut, "r.ipynb: not a Python notebook") {
		t.Errorf("stderr:\n%s", errOut)
	}
	run(t, dir, "", "fix", "--unsafe-fixes", ".")
	if b, _ := os.ReadFile(filepath.Join(dir, "bad.ipynb")); string(b) != `{"cells": [` {
		t.Error("a broken notebook was rewritten")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a", ".ipynb_checkpoints", "nb-checkpoint.ipynb")); string(b) != nb {
		t.Error("a checkpoint was rewritten")
	}
	write(t, filepath.Join(dir, "a", "nb.ipynb"), nb)
	write(t, filepath.Join(dir, "b", "train.py"), xgbSource)
	// include replaces the default patterns; exclude still applies.
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\ninclude = [\"*.py\"]\n")
	if out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "."); strings.Contains(out, ".ipynb") || !strings.Contains(out, "b/train.py") {
		t.Errorf("include = [*.py]:\n%s", out)
	}
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\ninclude = [\"a/*.ipynb\"]\n")
	if out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "."); !strings.Contains(out, "a/nb.ipynb") || strings.Contains(out, "train.py") {
		t.Errorf("include = [a/*.ipynb]:\n%s", out)
	}
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\nexclude = [\"*.ipynb\"]\n")
	if out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "."); strings.Contains(out, ".ipynb") || !strings.Contains(out, "b/train.py") {
		t.Errorf("exclude = [*.ipynb]:\n%s", out)
	}
}

func TestNotebookCellWithSyntaxErrorIsLeftOut(t *testing.T) {
	dir := t.TempDir()
	nb := `{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["import xgboost as xgb\n", "params = {\"tree_method\": \"gpu_hist\"}"]}, {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["for x in :\n", "params2 = {\"tree_method\": \"gpu_hist\"}"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`
	write(t, filepath.Join(dir, "nb.ipynb"), nb)
	out, _, code := run(t, dir, "", "check", "nb.ipynb")
	if code != 1 || !strings.Contains(out, "nb.ipynb:cell 2:1:9: E999 syntax error at cell 2:1:9: missing identifier") || !strings.Contains(out, "nb.ipynb:cell 1:2:26: XGB002") || strings.Contains(out, "cell 2:2") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	_, errOut, _ := run(t, dir, "", "fix", "nb.ipynb")
	b, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	want := strings.Replace(nb, `\"gpu_hist\"}"]}, {`, `\"hist\", \"device\": \"cuda\"}"]}, {`, 1)
	if string(b) != want || !strings.Contains(errOut, "cell 2 has a syntax error: that cell is not rewritten") {
		t.Errorf("fixed:\n%s\nstderr:\n%s", b, errOut)
	}
}
