package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxFileSize is the largest file gpuopt reads (Python sources past this
// are generated data, not code).
const MaxFileSize = 8 << 20

// MaxNotebookSize is the largest notebook gpuopt reads: a notebook's
// outputs (plots, tables) can outweigh its code many times.
const MaxNotebookSize = 64 << 20

// SkipError explains why a file was not analysed although it could be
// read: it is binary, not UTF-8, too large, or a link. It is reported but
// is not an I/O error.
type SkipError struct {
	Path   string
	Reason string
}

func (e *SkipError) Error() string { return e.Path + ": " + e.Reason }

// IsSkip reports whether err is a SkipError.
func IsSkip(err error) bool {
	var s *SkipError
	return errors.As(err, &s)
}

// File is a file as read from disk.
type File struct {
	Path  string
	Bytes []byte
	Mode  fs.FileMode
}

// Read reads a source file, refusing what gpuopt must not treat as Python
// text: binaries (a NUL byte), non-UTF-8 files and files over MaxFileSize.
func Read(path string) (*File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		if st, err = os.Stat(path); err != nil {
			return nil, err
		}
	}
	if !st.Mode().IsRegular() {
		return nil, &SkipError{path, "not a regular file"}
	}
	limit := int64(MaxFileSize)
	if strings.HasSuffix(path, ".ipynb") {
		limit = MaxNotebookSize
	}
	if st.Size() > limit {
		return nil, &SkipError{path, fmt.Sprintf("file too large (%d MB, the limit is %d MB): skipped", st.Size()>>20, limit>>20)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := CheckText(b); err != nil {
		return nil, &SkipError{path, err.Error()}
	}
	return &File{Path: path, Bytes: b, Mode: st.Mode().Perm()}, nil
}

// CheckText refuses binary and non-UTF-8 content.
func CheckText(b []byte) error {
	if bytes.IndexByte(b, 0) >= 0 {
		return errors.New("binary file (contains NUL bytes): skipped")
	}
	if !utf8.Valid(b) {
		return errors.New("not valid UTF-8 (gpuopt reads Python source as UTF-8): skipped")
	}
	return nil
}

// ErrChanged means the file changed on disk after gpuopt read it.
var ErrChanged = errors.New("file changed on disk while gpuopt was fixing it: left alone")

// WriteAtomic replaces f's content with data: it checks that the file still
// holds what was read, that it is writable, and is not a symbolic link,
// then writes a temporary file in the same directory with the same mode and
// renames it over the original.
func WriteAtomic(f *File, data []byte) error {
	st, err := os.Lstat(f.Path)
	if err != nil {
		return err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s: a symbolic link: not rewritten", f.Path)
	}
	// Renaming over a read-only file would succeed; respect the mode, also
	// for root, who may open any file for writing.
	if st.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s: read-only file: not rewritten", f.Path)
	}
	w, err := os.OpenFile(f.Path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s: read-only file: not rewritten", f.Path)
		}
		return err
	}
	w.Close()
	current, err := os.ReadFile(f.Path)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, f.Bytes) {
		return fmt.Errorf("%s: %w", f.Path, ErrChanged)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+".gpuopt-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return err
	}
	ok = true
	return nil
}
