package main

import (
	"io"
	"os"
	"syscall"
)

// stdinClosed reports whether stdin was closed when gpuopt started
// (`gpuopt check - <&-`). Go's runtime then opens /dev/null read-write in
// its place, which a shell's `< /dev/null` (read-only) never does: an
// empty input is analysed as an empty file, a closed one is an error.
func stdinClosed(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok || f != os.Stdin {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return true
	}
	null, err := os.Stat(os.DevNull)
	if err != nil || !os.SameFile(st, null) {
		return false
	}
	flags, err := fcntlGetfl(f.Fd())
	return err == nil && flags&syscall.O_ACCMODE == syscall.O_RDWR
}

func fcntlGetfl(fd uintptr) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}
