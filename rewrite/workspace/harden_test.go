package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Item 4: a write that lands after gpuopt's check but before its rename
// must survive: WriteAtomic checks again right before the rename.
func TestWriteAtomicRechecksBeforeRename(t *testing.T) {
	for name, change := range map[string]func(path string){
		"content":   func(p string) { os.WriteFile(p, []byte("x = 9\n"), 0o644) },
		"same size": func(p string) { os.WriteFile(p, []byte("x = 9\n"), 0o644) },
		"appended": func(p string) {
			f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("y = 2\n")
			f.Close()
		},
		"replaced file": func(p string) { os.WriteFile(p+".new", []byte("x = 1\n"), 0o644); os.Rename(p+".new", p) },
		"touched":       func(p string) { later := time.Now().Add(time.Hour); os.Chtimes(p, later, later) },
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "a.py")
		os.WriteFile(path, []byte("x = 1\n"), 0o644)
		f, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		beforeRename = func() { change(path) }
		err = WriteAtomic(f, []byte("x = 2\n"))
		beforeRename = nil
		if err == nil || !strings.Contains(err.Error(), "changed on disk") {
			t.Errorf("%s: err = %v", name, err)
		}
		if b, _ := os.ReadFile(path); string(b) == "x = 2\n" {
			t.Errorf("%s: the concurrent write was overwritten", name)
		}
		if leftovers, _ := filepath.Glob(filepath.Join(dir, ".a.py.gpuopt-*")); len(leftovers) != 0 {
			t.Errorf("%s: temp files left behind: %v", name, leftovers)
		}
	}
}

// Item 5: owner, group and the setgid bit survive a rewrite; a file with
// several hard links is refused (a rename would split it from its links).
func TestWriteAtomicKeepsOwnerGroupAndSpecialBits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	os.WriteFile(path, []byte("x = 1\n"), 0o644)
	uid, gid := os.Getuid(), os.Getgid()
	if os.Geteuid() == 0 {
		uid, gid = 1234, 5678 // root can give the file to someone else
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, 0o664|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(f, []byte("x = 2\n")); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	sys := st.Sys().(*syscall.Stat_t)
	if int(sys.Uid) != uid || int(sys.Gid) != gid || st.Mode().Perm() != 0o664 || st.Mode()&os.ModeSetgid == 0 {
		t.Errorf("after the rewrite: uid %d gid %d mode %v, want %d %d -rw-rwxr-- with setgid", sys.Uid, sys.Gid, st.Mode(), uid, gid)
	}

	linked := filepath.Join(dir, "b.py")
	os.WriteFile(linked, []byte("x = 1\n"), 0o644)
	if err := os.Link(linked, filepath.Join(dir, "b_link.py")); err != nil {
		t.Fatal(err)
	}
	f, _ = Read(linked)
	if err := CheckWritable(f); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("CheckWritable of a hard-linked file: %v", err)
	}
	if err := WriteAtomic(f, []byte("x = 2\n")); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("a hard-linked file: err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b_link.py")); string(b) != "x = 1\n" {
		t.Errorf("link changed: %q", b)
	}
}

// Item 3: a directory the walk cannot read is reported, and the walk goes
// on with the rest. (Root reads any directory: the CLI test runs gpuopt as
// another user for the same case.)
func TestExpandGoesOnPastUnreadableDirectories(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory: TestUnreadableDirectoryDoesNotStopTheWalk in cmd/gpuopt runs this as another user")
	}
	dir := t.TempDir()
	for _, p := range []string{"a/x.py", "b/y.py", "c/z.py"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("x = 1\n"), 0o644)
	}
	os.Chmod(filepath.Join(dir, "b"), 0)
	defer os.Chmod(filepath.Join(dir, "b"), 0o755)
	files, err := Expand([]string{dir}, Config{})
	if err == nil || !strings.Contains(err.Error(), "b") || len(files) != 2 {
		t.Errorf("files %v, err %v", files, err)
	}
}
