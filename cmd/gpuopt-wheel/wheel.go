package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Project metadata written into every wheel.
const (
	distName       = "gpuopt"
	summary        = "The linter that keeps your GPU busy: finds and fixes PyTorch, XGBoost, NumPy and pandas code that leaves an NVIDIA GPU idle"
	projectURL     = "https://github.com/gpuopt/gpuopt"
	requiresPython = ">=3.8"
)

// spec is what one wheel is made of.
type spec struct {
	Binary   []byte    // the gpuopt executable
	Version  string    // a PEP 440 version ("0.2.0", "0.2.0.dev3")
	Platform string    // the platform tag ("manylinux_2_34_x86_64", "win_amd64")
	Readme   string    // the long description (Markdown)
	Modified time.Time // the time stamp of every entry (reproducible builds)
}

// pep440 matches a version in PEP 440's canonical form.
var pep440 = regexp.MustCompile(`^([1-9][0-9]*!)?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*((a|b|rc)(0|[1-9][0-9]*))?(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?(\+[a-z0-9]+(\.[a-z0-9]+)*)?$`)

// platformTag matches the platform tags this generator writes.
var platformTag = regexp.MustCompile(`^(manylinux_[0-9]+_[0-9]+_(x86_64|aarch64)|linux_(x86_64|aarch64)|win_(amd64|arm64)|macosx_[0-9]+_[0-9]+_(x86_64|arm64))$`)

// normalizeVersion strips a tag's leading "v" and checks the result is a
// canonical PEP 440 version.
func normalizeVersion(v string) (string, error) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if !pep440.MatchString(v) {
		return "", fmt.Errorf("version %q is not a canonical PEP 440 version (like 0.2.0, 0.2.0rc1, 0.2.0.dev3)", v)
	}
	return v, nil
}

// FileName is the wheel's file name: gpuopt-<version>-py3-none-<platform>.whl.
func (s spec) FileName() string {
	return fmt.Sprintf("%s-%s-py3-none-%s.whl", distName, strings.ReplaceAll(s.Version, "-", "_"), s.Platform)
}

// scriptName is the executable's name in the wheel: gpuopt.exe on Windows.
func (s spec) scriptName() string {
	if strings.HasPrefix(s.Platform, "win_") {
		return distName + ".exe"
	}
	return distName
}

func (s spec) metadata() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Metadata-Version: 2.1\n")
	fmt.Fprintf(&b, "Name: %s\n", distName)
	fmt.Fprintf(&b, "Version: %s\n", s.Version)
	fmt.Fprintf(&b, "Summary: %s\n", summary)
	fmt.Fprintf(&b, "Home-page: %s\n", projectURL)
	fmt.Fprintf(&b, "Project-URL: Source, %s\n", projectURL)
	fmt.Fprintf(&b, "Project-URL: Documentation, %s#readme\n", projectURL)
	fmt.Fprintf(&b, "Keywords: gpu,cuda,pytorch,xgboost,linter,performance\n")
	for _, c := range []string{
		"Development Status :: 4 - Beta",
		"Environment :: Console",
		"Environment :: GPU :: NVIDIA CUDA",
		"Intended Audience :: Developers",
		"Programming Language :: Python :: 3",
		"Topic :: Software Development :: Quality Assurance",
	} {
		fmt.Fprintf(&b, "Classifier: %s\n", c)
	}
	fmt.Fprintf(&b, "Requires-Python: %s\n", requiresPython)
	fmt.Fprintf(&b, "Description-Content-Type: text/markdown\n\n")
	b.WriteString(s.Readme)
	if !strings.HasSuffix(s.Readme, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

func (s spec) wheelFile() string {
	return fmt.Sprintf("Wheel-Version: 1.0\nGenerator: gpuopt-wheel (%s)\nRoot-Is-Purelib: false\nTag: py3-none-%s\n", s.Version, s.Platform)
}

// entry is one file of the wheel.
type entry struct {
	name string
	mode os.FileMode
	data []byte
}

// write writes the wheel to w: the script under <name>-<version>.data/scripts,
// then the .dist-info files, RECORD last with a digest and size of each.
func (s spec) write(w io.Writer) error {
	if _, err := normalizeVersion(s.Version); err != nil {
		return err
	}
	if !platformTag.MatchString(s.Platform) {
		return fmt.Errorf("platform tag %q is not one gpuopt ships (manylinux_X_Y_x86_64/aarch64, win_amd64, macosx_X_Y_arm64, ...)", s.Platform)
	}
	if len(s.Binary) == 0 {
		return fmt.Errorf("the binary is empty")
	}
	dataDir := fmt.Sprintf("%s-%s.data", distName, s.Version)
	infoDir := fmt.Sprintf("%s-%s.dist-info", distName, s.Version)
	entries := []entry{
		{dataDir + "/scripts/" + s.scriptName(), 0o755, s.Binary},
		{infoDir + "/METADATA", 0o644, []byte(s.metadata())},
		{infoDir + "/WHEEL", 0o644, []byte(s.wheelFile())},
	}
	var record bytes.Buffer
	rw := csv.NewWriter(&record)
	for _, e := range entries {
		sum := sha256.Sum256(e.data)
		rw.Write([]string{e.name, "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]), fmt.Sprint(len(e.data))})
	}
	rw.Write([]string{infoDir + "/RECORD", "", ""})
	rw.Flush()
	entries = append(entries, entry{infoDir + "/RECORD", 0o644, record.Bytes()})

	zw := zip.NewWriter(w)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: s.Modified}
		h.SetMode(e.mode) // the executable bit, in the external attributes
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(e.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeFile writes the wheel into dir atomically and returns its path.
func (s spec) writeFile(dir string) (string, error) {
	path := filepath.Join(dir, s.FileName())
	tmp, err := os.CreateTemp(dir, ".gpuopt-wheel-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if err := s.write(tmp); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}
