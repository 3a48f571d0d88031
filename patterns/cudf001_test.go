package patterns

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// sparseFile creates path (and its folders) with the given size on disk
// as the file system reports it, without writing the bytes.
func sparseFile(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

// runCUDF001 writes src as a script at path and returns CUDF001's findings
// on it, parsed under the name given.
func runCUDF001(t *testing.T, path, name, src string) ([]rewrite.Finding, *rewrite.File) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "NVIDIA H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}}
	f := rewrite.Parse(name, []byte(src))
	return Run(f, Selection{Select: []string{"CUDF001"}}, env), f
}

const cudfScript = "import pandas as pd\n\ndf = pd.read_csv(\"data/big.csv\")\nprint(df.shape)\n"

func TestCUDF001FileSize(t *testing.T) {
	for _, tc := range []struct {
		size int64
		want string // "" for no finding
	}{
		{cudfLargeDataBytes - 1, ""},
		{cudfLargeDataBytes, "data/big.csv (1.0 GB)"},
		{2_500_000_000, "data/big.csv (2.5 GB)"},
	} {
		dir := t.TempDir()
		sparseFile(t, filepath.Join(dir, "data", "big.csv"), tc.size)
		script := filepath.Join(dir, "train.py")
		fds, f := runCUDF001(t, script, script, cudfScript)
		if tc.want == "" {
			if len(fds) != 0 {
				t.Errorf("size %d: want no finding, got %v", tc.size, fds)
			}
			continue
		}
		if len(fds) != 1 || !strings.Contains(fds[0].Message, tc.want) {
			t.Fatalf("size %d: want one finding naming %q, got %+v", tc.size, tc.want, fds)
		}
		fx := fds[0].Fix
		if fx == nil || fx.Applicability != rewrite.Unsafe {
			t.Fatalf("size %d: want an unsafe fix, got %+v", tc.size, fx)
		}
		out, err := rewrite.ApplyEdits(f.Src.Bytes, fx.Edits)
		if err != nil {
			t.Fatal(err)
		}
		want := "import cudf.pandas\ncudf.pandas.install()\n" + cudfScript
		if string(out) != want {
			t.Errorf("fixed:\n%s\nwant:\n%s", out, want)
		}
		// Idempotent: the fixed script is silent.
		if again, _ := runCUDF001(t, script, script, string(out)); len(again) != 0 {
			t.Errorf("fixed script still reported: %v", again)
		}
	}
}

// Relative paths resolve against the checked file's folder, not the
// working directory.
func TestCUDF001RelativeToFile(t *testing.T) {
	dir := t.TempDir()
	sparseFile(t, filepath.Join(dir, "proj", "data", "big.csv"), 3_000_000_000)
	t.Chdir(dir) // dir/data/big.csv does not exist
	fds, _ := runCUDF001(t, filepath.Join(dir, "proj", "train.py"), filepath.Join("proj", "train.py"), cudfScript)
	if len(fds) != 1 || !strings.Contains(fds[0].Message, "(3.0 GB)") {
		t.Fatalf("want one finding with the size, got %+v", fds)
	}
	// The same source under a name that is not on disk (stdin) knows no
	// folder: silent.
	fds, _ = runCUDF001(t, filepath.Join(dir, "other", "x.py"), "-", cudfScript)
	if len(fds) != 0 {
		t.Errorf("stdin: want no finding, got %v", fds)
	}
}

// A dataset folder counts with the sum of its files; a name assigned a
// literal path once is followed.
func TestCUDF001Folder(t *testing.T) {
	dir := t.TempDir()
	sparseFile(t, filepath.Join(dir, "parts", "a.parquet"), 600_000_000)
	sparseFile(t, filepath.Join(dir, "parts", "sub", "b.parquet"), 600_000_000)
	src := "\"\"\"ETL.\"\"\"\nfrom __future__ import annotations\n\nimport pandas as pd\n\nPARTS = \"parts\"\ndf = pd.read_parquet(PARTS)\n"
	script := filepath.Join(dir, "etl.py")
	fds, f := runCUDF001(t, script, script, src)
	if len(fds) != 1 || !strings.Contains(fds[0].Message, "parts (1.2 GB)") {
		t.Fatalf("want one finding naming parts (1.2 GB), got %+v", fds)
	}
	out, err := rewrite.ApplyEdits(f.Src.Bytes, fds[0].Fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "\"\"\"ETL.\"\"\"\nfrom __future__ import annotations\n\nimport cudf.pandas\ncudf.pandas.install()\nimport pandas as pd\n\nPARTS = \"parts\"\ndf = pd.read_parquet(PARTS)\n"
	if string(out) != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", out, want)
	}
	// One part alone is below the threshold.
	os.Remove(filepath.Join(dir, "parts", "sub", "b.parquet"))
	if fds, _ := runCUDF001(t, script, script, src); len(fds) != 0 {
		t.Errorf("600 MB: want no finding, got %v", fds)
	}
}
