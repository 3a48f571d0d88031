package main

import (
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// forceExclude drops the inputs that [tool.gpuopt] exclude patterns match
// even though they were named on the command line (directory walks skip
// them anyway): --force-exclude, for pre-commit, which names every staged
// file. A file is excluded when it or a folder above it matches.
func forceExclude(ins []input, cfg workspace.Config) []input {
	if cfg.Root == "" || len(cfg.Exclude) == 0 {
		return ins
	}
	excl := ignore.CompileIgnoreLines(cfg.Exclude...)
	kept := ins[:0]
	for _, in := range ins {
		if !excludedPath(in.path, cfg.Root, excl) {
			kept = append(kept, in)
		}
	}
	return kept
}

func excludedPath(path, root string, excl *ignore.GitIgnore) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	if excl.MatchesPath(rel) {
		return true
	}
	for dir := rel; strings.Contains(dir, "/"); {
		dir = dir[:strings.LastIndex(dir, "/")]
		if excl.MatchesPath(dir + "/") {
			return true
		}
	}
	return false
}
