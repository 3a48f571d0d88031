package main

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"strconv"
	"strings"
)

// manylinuxLibs are the shared libraries a manylinux wheel may link
// against (PEP 600 defers to the manylinux policies; these are in all of them).
var manylinuxLibs = map[string]bool{
	"libc.so.6": true, "libpthread.so.0": true, "libdl.so.2": true, "libm.so.6": true, "librt.so.1": true,
	"ld-linux-x86-64.so.2": true, "ld-linux-aarch64.so.1": true,
}

// inferPlatform reads the executable's format and architecture and returns
// the wheel platform tag it deserves. For Linux that is manylinux_2_Y with Y
// the newest glibc symbol version the binary needs (at least 2.17, the
// oldest manylinux_2_* baseline), so that pip installs it exactly where it
// runs.
func inferPlatform(bin []byte) (string, error) {
	r := bytes.NewReader(bin)
	if f, err := elf.NewFile(r); err == nil {
		return elfPlatform(f)
	}
	if f, err := pe.NewFile(r); err == nil {
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			return "win_amd64", nil
		case pe.IMAGE_FILE_MACHINE_ARM64:
			return "win_arm64", nil
		}
		return "", fmt.Errorf("unsupported Windows machine type %#x", f.Machine)
	}
	if f, err := macho.NewFile(r); err == nil {
		// Go 1.25 and later need macOS 12 (Monterey).
		switch f.Cpu {
		case macho.CpuArm64:
			return "macosx_12_0_arm64", nil
		case macho.CpuAmd64:
			return "macosx_12_0_x86_64", nil
		}
		return "", fmt.Errorf("unsupported macOS CPU %v", f.Cpu)
	}
	return "", fmt.Errorf("not an ELF, PE or Mach-O executable")
}

func elfPlatform(f *elf.File) (string, error) {
	var arch string
	switch f.Machine {
	case elf.EM_X86_64:
		arch = "x86_64"
	case elf.EM_AARCH64:
		arch = "aarch64"
	default:
		return "", fmt.Errorf("unsupported ELF machine %v", f.Machine)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return "", err
	}
	syms, err := f.ImportedSymbols()
	if err != nil && len(libs) > 0 {
		return "", err
	}
	versions := make([]string, 0, len(syms))
	for _, s := range syms {
		versions = append(versions, s.Version)
	}
	return manylinuxTag(arch, libs, versions)
}

// manylinuxTag is manylinux_2_Y_<arch> for a binary that links libs and
// needs the symbol versions given ("GLIBC_2.34", ...).
func manylinuxTag(arch string, libs, versions []string) (string, error) {
	for _, lib := range libs {
		if !manylinuxLibs[lib] {
			return "", fmt.Errorf("the binary links %s, which manylinux does not allow (pass -platform linux_%s to tag it for this machine only)", lib, arch)
		}
	}
	minor := 17
	for _, v := range versions {
		rest, ok := strings.CutPrefix(v, "GLIBC_2.")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, ".") // GLIBC_2.2.5 is 2.2
		if n, err := strconv.Atoi(rest); err == nil && n > minor {
			minor = n
		}
	}
	return fmt.Sprintf("manylinux_2_%d_%s", minor, arch), nil
}
