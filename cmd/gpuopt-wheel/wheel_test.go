package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func readZip(t *testing.T, b []byte) map[string]*zip.File {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		if files[f.Name] != nil {
			t.Errorf("%s twice in the zip", f.Name)
		}
		files[f.Name] = f
	}
	return files
}

func contents(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The wheel has the script (executable), METADATA, WHEEL and a RECORD
// whose digests and sizes match every other file, as pip verifies them.
func TestWheelContents(t *testing.T) {
	s := spec{Binary: []byte("\x7fELF not really a binary\x00\x01"), Version: "0.2.0", Platform: "manylinux_2_34_x86_64",
		Readme: "# gpuopt\n\nThe linter that keeps your GPU busy.\n", Modified: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)}
	if s.FileName() != "gpuopt-0.2.0-py3-none-manylinux_2_34_x86_64.whl" {
		t.Errorf("file name %s", s.FileName())
	}
	var buf bytes.Buffer
	if err := s.write(&buf); err != nil {
		t.Fatal(err)
	}
	files := readZip(t, buf.Bytes())
	script := files["gpuopt-0.2.0.data/scripts/gpuopt"]
	if script == nil {
		t.Fatalf("no script in %v", files)
	}
	if script.Mode() != 0o755 || script.ExternalAttrs>>16 != 0o100755 || script.CreatorVersion>>8 != 3 {
		t.Errorf("script mode %v, external attributes %#o, creator %d: want an executable regular file made on Unix",
			script.Mode(), script.ExternalAttrs>>16, script.CreatorVersion>>8)
	}
	if !bytes.Equal(contents(t, script), s.Binary) {
		t.Error("script is not the binary")
	}

	rows, err := csv.NewReader(bytes.NewReader(contents(t, files["gpuopt-0.2.0.dist-info/RECORD"]))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, row := range rows {
		if len(row) != 3 {
			t.Fatalf("RECORD row %v", row)
		}
		listed[row[0]] = true
		f := files[row[0]]
		if f == nil {
			t.Errorf("RECORD lists %s, not in the wheel", row[0])
			continue
		}
		if row[0] == "gpuopt-0.2.0.dist-info/RECORD" {
			if row[1] != "" || row[2] != "" {
				t.Errorf("RECORD's own row %v", row)
			}
			continue
		}
		b := contents(t, f)
		sum := sha256.Sum256(b)
		if row[1] != "sha256="+base64.RawURLEncoding.EncodeToString(sum[:]) || row[2] != strconv.Itoa(len(b)) {
			t.Errorf("RECORD row %v does not match %s (%d bytes)", row, row[0], len(b))
		}
		if strings.Contains(row[1], "=") && strings.HasSuffix(row[1], "=") {
			t.Errorf("digest %s is padded", row[1])
		}
	}
	for name := range files {
		if !listed[name] {
			t.Errorf("%s is not in RECORD", name)
		}
	}

	meta := contents(t, files["gpuopt-0.2.0.dist-info/METADATA"])
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(meta)))
	h, err := tp.ReadMIMEHeader()
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"Metadata-Version": "2.1", "Name": "gpuopt", "Version": "0.2.0",
		"Requires-Python": ">=3.8", "Description-Content-Type": "text/markdown"} {
		if h.Get(k) != want {
			t.Errorf("METADATA %s = %q, want %q", k, h.Get(k), want)
		}
	}
	if h.Get("Summary") == "" || strings.Contains(h.Get("Summary"), "\n") {
		t.Errorf("Summary %q", h.Get("Summary"))
	}
	body, _ := io.ReadAll(tp.R)
	if string(body) != s.Readme {
		t.Errorf("description %q", body)
	}
	wheel := string(contents(t, files["gpuopt-0.2.0.dist-info/WHEEL"]))
	for _, line := range []string{"Wheel-Version: 1.0", "Root-Is-Purelib: false", "Tag: py3-none-manylinux_2_34_x86_64"} {
		if !strings.Contains(wheel, line+"\n") {
			t.Errorf("WHEEL lacks %q:\n%s", line, wheel)
		}
	}
	if m := script.Modified.UTC(); !m.Equal(s.Modified) {
		t.Errorf("time stamp %v", m)
	}
	// The same input gives the same bytes.
	var again bytes.Buffer
	s.write(&again)
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two builds differ")
	}
}

func TestWindowsWheelAndValidation(t *testing.T) {
	s := spec{Binary: []byte("MZ"), Version: "0.2.0rc1", Platform: "win_amd64", Readme: "r"}
	var buf bytes.Buffer
	if err := s.write(&buf); err != nil {
		t.Fatal(err)
	}
	if readZip(t, buf.Bytes())["gpuopt-0.2.0rc1.data/scripts/gpuopt.exe"] == nil || s.FileName() != "gpuopt-0.2.0rc1-py3-none-win_amd64.whl" {
		t.Errorf("windows wheel %s", s.FileName())
	}
	for in, want := range map[string]string{"v0.2.0": "0.2.0", "0.1.0.dev0": "0.1.0.dev0", "1.0.post2": "1.0.post2", "0.2.0+g1a2b3c": "0.2.0+g1a2b3c"} {
		if got, err := normalizeVersion(in); err != nil || got != want {
			t.Errorf("normalizeVersion(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "0.2.0-dev", "latest", "01.2", "0.2.0 "} {
		if _, err := normalizeVersion(bad + "x"); err == nil {
			t.Errorf("%q accepted", bad+"x")
		}
	}
	for _, bad := range []spec{
		{Binary: []byte("x"), Version: "0.2.0", Platform: "any"},
		{Binary: []byte("x"), Version: "0.2.0", Platform: "linux-x86_64"},
		{Binary: []byte("x"), Version: "nope", Platform: "win_amd64"},
		{Version: "0.2.0", Platform: "win_amd64"},
	} {
		if err := bad.write(io.Discard); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestManylinuxTag(t *testing.T) {
	tag, err := manylinuxTag("x86_64", []string{"libc.so.6"}, []string{"GLIBC_2.2.5", "GLIBC_2.34", "GLIBC_2.32", "", "GLIBC_PRIVATE"})
	if err != nil || tag != "manylinux_2_34_x86_64" {
		t.Errorf("%s %v", tag, err)
	}
	if tag, _ := manylinuxTag("aarch64", nil, nil); tag != "manylinux_2_17_aarch64" {
		t.Errorf("static binary: %s", tag)
	}
	if _, err := manylinuxTag("x86_64", []string{"libc.so.6", "libcuda.so.1"}, nil); err == nil || !strings.Contains(err.Error(), "libcuda.so.1") {
		t.Errorf("a library outside manylinux: %v", err)
	}
}

// The platform is read from each executable format's header: this test's
// own ELF binary, and the smallest valid
// PE and Mach-O headers.
func TestInferPlatform(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	got, err := inferPlatform(bin)
	var minor int
	if n, _ := fmt.Sscanf(got, "manylinux_2_%d_", &minor); err != nil || n != 1 || minor < 17 || !strings.HasSuffix(got, "_"+arch) {
		t.Errorf("this test binary: %q, %v", got, err)
	}

	var pe bytes.Buffer
	pe.WriteString("MZ")
	pe.Write(make([]byte, 0x3c-2))
	binary.Write(&pe, binary.LittleEndian, uint32(0x40)) // e_lfanew
	pe.WriteString("PE\x00\x00")
	binary.Write(&pe, binary.LittleEndian, [10]uint16{0x8664}) // COFF header, machine AMD64, no sections
	pe.Write(make([]byte, 64))                                 // debug/pe reads 96 bytes of DOS header
	if got, err := inferPlatform(pe.Bytes()); err != nil || got != "win_amd64" {
		t.Errorf("PE: %q, %v", got, err)
	}

	var mach bytes.Buffer
	binary.Write(&mach, binary.LittleEndian, [8]uint32{0xfeedfacf, 0x0100000c, 0, 2}) // 64-bit, arm64, executable, no commands
	if got, err := inferPlatform(mach.Bytes()); err != nil || got != "macosx_12_0_arm64" {
		t.Errorf("Mach-O: %q, %v", got, err)
	}
	if _, err := inferPlatform([]byte("#!/bin/sh\necho hi\n")); err == nil {
		t.Error("a shell script got a platform")
	}
}
