package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
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
	// stat is what the file's inode said when it was read: WriteAtomic
	// compares it (with the content) before replacing the file.
	stat fileStat
}

// fileStat is the part of a file's status that changes when someone
// writes or replaces it.
type fileStat struct {
	dev, ino uint64
	size     int64
	mtime    time.Time
}

func statOf(st fs.FileInfo) fileStat {
	s := fileStat{size: st.Size(), mtime: st.ModTime()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino = uint64(sys.Dev), uint64(sys.Ino)
	}
	return s
}

// Read reads a source file, refusing what gpuopt must not treat as Python
// text: binaries (a NUL byte), non-UTF-8 files and files over MaxFileSize.
func Read(path string) (*File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &SkipError{path, "not a regular file"}
	}
	limit := int64(MaxFileSize)
	if strings.HasSuffix(path, ".ipynb") {
		limit = MaxNotebookSize
	}
	if st.Size() > limit {
		return nil, &SkipError{path, tooLarge(st.Size(), limit)}
	}
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// The status of the file as opened, taken before reading: a write
	// during the read shows as a later mtime when the file is written back.
	if st, err = r.Stat(); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &SkipError{path, tooLarge(int64(len(b)), limit)}
	}
	if err := CheckText(b); err != nil {
		return nil, &SkipError{path, err.Error()}
	}
	return &File{Path: path, Bytes: b, Mode: st.Mode().Perm(), stat: statOf(st)}, nil
}

func tooLarge(size, limit int64) string {
	return fmt.Sprintf("file too large (%d MB, the limit is %d MB): skipped", size>>20, limit>>20)
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

// beforeRename, when set (by tests), runs between writing the temporary
// file and the last check before the rename: the window a concurrent
// writer has.
var beforeRename func()

// CheckWritable reports why WriteAtomic would refuse to replace f, without
// writing: a symbolic link, a read-only file, a file with several hard
// links (a rename would split it from them), a file whose owner or group
// gpuopt could not give the replacement. fix --diff shows only the files
// this accepts.
func CheckWritable(f *File) error {
	_, err := checkWritable(f)
	return err
}

func checkWritable(f *File) (fs.FileInfo, error) {
	st, err := os.Lstat(f.Path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: a symbolic link: not rewritten", f.Path)
	}
	// Renaming over a read-only file would succeed; respect the mode, also
	// for root, who may open any file for writing.
	if st.Mode().Perm()&0o222 == 0 {
		return nil, fmt.Errorf("%s: read-only file: not rewritten", f.Path)
	}
	w, err := os.OpenFile(f.Path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("%s: read-only file: not rewritten", f.Path)
		}
		return nil, err
	}
	w.Close()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		if sys.Nlink > 1 {
			return nil, fmt.Errorf("%s: has %d hard links: not rewritten (replacing it would split it from its links)", f.Path, sys.Nlink)
		}
		if euid := os.Geteuid(); euid != 0 && int(sys.Uid) != euid {
			return nil, fmt.Errorf("%s: owned by another user: not rewritten (the rewrite would change its owner)", f.Path)
		}
	}
	return st, nil
}

// unchanged reports whether the file at f.Path is still the one read:
// same inode, size, modification time and content.
func unchanged(f *File) (bool, error) {
	st, err := os.Lstat(f.Path)
	if err != nil {
		return false, err
	}
	if f.stat != (fileStat{}) && statOf(st) != f.stat {
		return false, nil
	}
	current, err := os.ReadFile(f.Path)
	if err != nil {
		return false, err
	}
	return bytes.Equal(current, f.Bytes), nil
}

// WriteAtomic replaces f's content with data: it checks that the file may
// be replaced (CheckWritable) and still holds what was read, writes a
// temporary file in the same directory with the same owner, group and
// mode (setuid, setgid and sticky bits included), checks the original
// once more right before renaming the temporary file over it. What remains
// is the moment between that last check and the rename: a write landing
// in it is lost (no portable rename-if-unchanged exists).
func WriteAtomic(f *File, data []byte) error {
	st, err := checkWritable(f)
	if err != nil {
		return err
	}
	if same, err := unchanged(f); err != nil {
		return err
	} else if !same {
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
	if err := writeLike(tmp, st, data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if beforeRename != nil {
		beforeRename()
	}
	if same, err := unchanged(f); err != nil {
		return err
	} else if !same {
		return fmt.Errorf("%s: %w", f.Path, ErrChanged)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return err
	}
	ok = true
	return nil
}

// writeLike writes data to tmp and gives it the owner, group and mode of
// the file st describes, then syncs it.
func writeLike(tmp *os.File, st fs.FileInfo, data []byte) error {
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		// chown first: it clears the setuid and setgid bits chmod sets.
		if err := tmp.Chown(int(sys.Uid), int(sys.Gid)); err != nil {
			return fmt.Errorf("%s: cannot keep its owner and group: not rewritten (%w)", st.Name(), err)
		}
	}
	if err := tmp.Chmod(st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	return tmp.Sync()
}
