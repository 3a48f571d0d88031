package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomicKeepsModeAndRefusesChangedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	os.WriteFile(path, []byte("x = 1\n"), 0o751)
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(f, []byte("x = 2\n")); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "x = 2\n" || st.Mode().Perm() != 0o751 {
		t.Errorf("got %q mode %v", b, st.Mode())
	}
	// Someone edits the file after gpuopt read it: the edit must survive.
	f, _ = Read(path)
	os.WriteFile(path, []byte("x = 3  # edited by a person\n"), 0o751)
	err = WriteAtomic(f, []byte("x = 4\n"))
	if err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "x = 3  # edited by a person\n" {
		t.Errorf("a concurrent edit was lost: %q", b)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".a.py.gpuopt-*")); len(leftovers) != 0 {
		t.Errorf("temp files left behind: %v", leftovers)
	}
}

func TestReadRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.py")
	os.WriteFile(big, make([]byte, MaxFileSize+1), 0o644)
	if _, err := Read(big); !IsSkip(err) || !strings.Contains(err.Error(), "too large") {
		t.Errorf("big: %v", err)
	}
	bad := filepath.Join(dir, "bad.py")
	os.WriteFile(bad, []byte{0xff, 0xfe, 'x'}, 0o644)
	if _, err := Read(bad); !IsSkip(err) || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("bad: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "nope.py")); err == nil || IsSkip(err) {
		t.Errorf("missing file must be an I/O error: %v", err)
	}
}

func TestFindConfigRejectsUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.gpuopt]\nselekt = [\"XGB\"]\n"), 0o644)
	if _, err := FindConfig(dir); err == nil || !strings.Contains(err.Error(), "selekt") {
		t.Errorf("err = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.gpuopt]\nselect = [\"XGB\"]\ntarget-gpu = \"h100\"\n"), 0o644)
	sub := filepath.Join(dir, "a", "b")
	os.MkdirAll(sub, 0o755)
	cfg, err := FindConfig(sub)
	if err != nil || len(cfg.Select) != 1 || cfg.TargetGPU != "h100" || cfg.Root != dir {
		t.Errorf("cfg = %+v, %v", cfg, err)
	}
}

// TestFindConfigSkipsAnotherToolsBrokenFile checks that a pyproject.toml
// that does not parse is passed over when it never names gpuopt (blind
// sample S23I: an unterminated string in [tool.black]), and the search
// goes on to the parent's [tool.gpuopt]; a broken file that does name
// gpuopt is still an error.
func TestFindConfigSkipsAnotherToolsBrokenFile(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "repo")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.gpuopt]\ntarget-gpu = \"h100\"\n"), 0o644)
	os.WriteFile(filepath.Join(sub, "pyproject.toml"), []byte("[tool.black]\nexclude = '''\n/(\\.git)/\n"), 0o644)
	cfg, err := FindConfig(sub)
	if err != nil || cfg.TargetGPU != "h100" || cfg.Root != dir {
		t.Errorf("cfg = %+v, %v", cfg, err)
	}
	os.WriteFile(filepath.Join(sub, "pyproject.toml"), []byte("[tool.gpuopt]\ntarget-gpu = \"h100\n"), 0o644)
	if _, err := FindConfig(sub); err == nil {
		t.Error("a broken [tool.gpuopt] must be an error")
	}
}
