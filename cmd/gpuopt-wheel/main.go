// Command gpuopt-wheel wraps a built gpuopt binary into a Python wheel, the
// way ruff ships: `pip install gpuopt-<version>-py3-none-<platform>.whl`
// puts the executable on the virtualenv's PATH, no Go or C compiler needed.
// The wheel holds the binary in gpuopt-<version>.data/scripts/ (mode 0755),
// METADATA (with the README as description), WHEEL and RECORD (a sha256
// digest and size per file). The platform tag is read from the binary:
// manylinux_2_Y for the newest glibc symbol version an ELF needs, win_amd64
// for a PE, macosx_12_0_<arch> for a Mach-O.
//
//	gpuopt-wheel -binary dist/linux-amd64/gpuopt -version 0.2.0 -readme README.md -out dist/
//
// Only the Go standard library is used: no Python build tooling.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	binary := flag.String("binary", "", "the gpuopt executable to wrap (required)")
	version := flag.String("version", "", "the PEP 440 version, e.g. 0.2.0 (a leading v is dropped; required)")
	platform := flag.String("platform", "", "the platform tag; default: read from the binary")
	readme := flag.String("readme", "README.md", "the Markdown file used as the project description")
	out := flag.String("out", ".", "the directory to write the wheel to")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: gpuopt-wheel -binary PATH -version X.Y.Z [-platform TAG] [-readme README.md] [-out DIR]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *binary == "" || *version == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	path, err := build(*binary, *version, *platform, *readme, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpuopt-wheel:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

func build(binary, version, platform, readme, out string) (string, error) {
	bin, err := os.ReadFile(binary)
	if err != nil {
		return "", err
	}
	s := spec{Binary: bin, Platform: platform, Modified: modTime()}
	if s.Version, err = normalizeVersion(version); err != nil {
		return "", err
	}
	if s.Platform == "" {
		if s.Platform, err = inferPlatform(bin); err != nil {
			return "", fmt.Errorf("%s: %v", binary, err)
		}
	}
	text, err := os.ReadFile(readme)
	if err != nil {
		return "", err
	}
	s.Readme = string(text)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	return s.writeFile(out)
}

// modTime is the time stamp of the wheel's entries: SOURCE_DATE_EPOCH when
// set (reproducible builds), else the zip format's earliest date.
func modTime() time.Time {
	if sec, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil && sec >= 315532800 {
		return time.Unix(sec, 0).UTC()
	}
	return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
}
