package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// skipDirs are never descended into: VCS metadata, virtualenvs, caches.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "__pycache__": true, ".venv": true,
	"venv": true, ".tox": true, ".nox": true, "node_modules": true, "site-packages": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".ipynb_checkpoints": true,
}

// IsVirtualenv reports whether dir is a Python virtual environment.
func IsVirtualenv(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}

// DefaultInclude are the files a directory walk picks: Python sources,
// stubs and Jupyter notebooks.
var DefaultInclude = []string{"*.py", "*.pyi", "*.ipynb"}

// Expand turns command-line paths into the Python files to check, sorted.
// Directories are walked for the config's include patterns (DefaultInclude:
// *.py, *.pyi and *.ipynb files), honouring .gitignore
// files in the walked tree, the config's exclude patterns and skipping
// virtualenvs; symbolic links are not followed. Files named explicitly are
// always included.
func Expand(paths []string, cfg Config) ([]string, error) {
	var files []string
	var errs []error
	excl := ignore.CompileIgnoreLines(cfg.Exclude...)
	incl := ignore.CompileIgnoreLines(DefaultInclude...)
	if len(cfg.Include) > 0 {
		incl = ignore.CompileIgnoreLines(cfg.Include...)
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := walkDir(p, cfg, excl, incl)
		files = append(files, found...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	sort.Strings(files)
	return dedupe(files), errors.Join(errs...)
}

type ignoreScope struct {
	dir string
	ig  *ignore.GitIgnore
}

func walkDir(root string, cfg Config, excl, incl *ignore.GitIgnore) ([]string, error) {
	var files []string
	var errs []error
	var scopes []ignoreScope
	ignored := func(path string, isDir bool) bool {
		for _, s := range scopes {
			rel, err := filepath.Rel(s.dir, path)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			if isDir {
				rel += "/"
			}
			if s.ig.MatchesPath(rel) {
				return true
			}
		}
		if cfg.Root != "" && len(cfg.Exclude) > 0 {
			if abs, err := filepath.Abs(path); err == nil {
				if rel, err := filepath.Rel(cfg.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
					if isDir {
						rel += "/"
					}
					return excl.MatchesPath(rel)
				}
			}
		}
		return false
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable directory is reported; the walk goes on.
			errs = append(errs, err)
			if d != nil && d.IsDir() && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path != root && (skipDirs[d.Name()] || IsVirtualenv(path) || ignored(path, true)) {
				return filepath.SkipDir
			}
			if ig, err := ignore.CompileIgnoreFile(filepath.Join(path, ".gitignore")); err == nil {
				scopes = append(scopes, ignoreScope{dir: path, ig: ig})
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() {
			return nil
		}
		if included(path, cfg, incl) && !ignored(path, false) {
			files = append(files, path)
		}
		return nil
	})
	return files, errors.Join(append(errs, err)...)
}

// included reports whether a walked file matches the include patterns,
// relative to the configuration's folder (or the file's own name).
func included(path string, cfg Config, incl *ignore.GitIgnore) bool {
	rel := filepath.Base(path)
	if cfg.Root != "" {
		if abs, err := filepath.Abs(path); err == nil {
			if r, err := filepath.Rel(cfg.Root, abs); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
		}
	}
	return incl.MatchesPath(filepath.ToSlash(rel))
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
