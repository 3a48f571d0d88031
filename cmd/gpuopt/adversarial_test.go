package main

// The standing adversarial suite (issue 16): hostile inputs generated here
// at test time (nothing large is committed), each run through check, fix
// and fix --diff, alone and in one directory walk, with what must hold
// for every one of them: no crash, an exit code of 0, 1 or 2 as
// documented, a message naming the file when it is not analysed, nothing
// written to a file fix must leave alone, no temporary file left behind,
// and the other files of the walk still checked and fixed.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostile is one generated input.
type hostile struct {
	name string // file name (may hold odd characters)
	// content is written unless setup makes the file itself.
	content string
	setup   func(t *testing.T, path string)
	// report is what check must print (stdout or stderr) about the file.
	report string
	// fixed: fix may rewrite the file; else its bytes must not change.
	fixed bool
}

func hostileInputs() []hostile {
	deep := func(open, mid, close string, n int) string {
		return "import torch\ny = " + strings.Repeat(open, n) + mid + strings.Repeat(close, n) + "\n"
	}
	const amp = "import torch\ns = torch.cuda.amp.GradScaler()\n"
	hs := []hostile{
		{name: "deep_minus.py", content: deep("-", "1", "", 20000), report: "nesting too deep"},
		{name: "deep_paren.py", content: deep("(", "1", ")", 20000), report: "nesting too deep"},
		{name: "deep_list.py", content: deep("[", "1", "]", 20000), report: "nesting too deep"},
		{name: "nested_parens.py", content: deep("(", "1", ")", 300), report: "too many nested parentheses"},
		{name: "deep_plus.py", content: "import torch\ny = 1" + strings.Repeat("+1", 20000) + "\n", report: "nesting too deep"},
		{name: "deep_not.py", content: deep("not ", "x", "", 20000), report: "nesting too deep"},
		{name: "deep_blocks.py", content: "import torch\n" + func() string {
			var sb strings.Builder
			for i := range 150 {
				sb.WriteString(strings.Repeat(" ", i) + "if x:\n")
			}
			return sb.String() + strings.Repeat(" ", 150) + "pass\n"
		}(), report: "too many levels of indentation"},
		{name: "nul.py", content: "import torch\x00\n" + amp, report: "binary file"},
		{name: "latin1.py", content: "import torch\n# caf\xe9\n" + amp, report: "not valid UTF-8"},
		{name: "huge.py", content: "import torch\n" + strings.Repeat("x = 1\n", (MaxBig)/6), report: "too large"},
		{name: "unterminated.py", content: amp + "s = '''never closed\n", report: "E999"},
		{name: "tabs.py", content: "import torch\nif True:\n        x = 1\n\ty = torch.cuda.amp.GradScaler()\n", report: "inconsistent use of tabs"},
		{name: "print2.py", content: "import torch\nprint 'x'\n" + amp[13:], report: "Python 2 print statement"},
		{name: "repeat_kw.py", content: "import torch\nx = torch.zeros(3, device='cuda', device='cpu')\n" + amp[13:], report: "keyword argument repeated"},
		{name: "return_top.py", content: amp + "return s\n", report: "'return' outside function"},
		{name: "long_line.py", content: "import torch\nx = [" + strings.Repeat("torch.cuda.amp.GradScaler(), ", 20000) + "]\n", report: "AMP002", fixed: true},
		{name: "bom.py", content: "\ufeff" + amp, report: "bom.py:2:5: AMP002", fixed: true},
		{name: "crlf.py", content: strings.ReplaceAll(amp, "\n", "\r\n"), report: "crlf.py:2:5: AMP002", fixed: true},
		{name: "cr_only.py", content: strings.ReplaceAll(amp, "\n", "\r"), report: "cr_only.py:2:5: AMP002", fixed: true},
		{name: "empty.py", content: ""},
		{name: "surrogates.py", content: amp + "s2 = '\\udc80\U0001F600'  # 😀\n", report: "surrogates.py:2:5: AMP002", fixed: true},
		{name: "new\nline.py", content: amp, report: "AMP002", fixed: true},
		{name: "tab\tand,comma:colon.py", content: amp, report: "AMP002", fixed: true},
		{name: "é.py", content: amp, report: "AMP002", fixed: true},
		{name: "readonly.py", content: amp, report: "AMP002", setup: func(t *testing.T, p string) {
			write(t, p, amp)
			os.Chmod(p, 0o444)
		}},
		{name: "hardlinked.py", content: amp, report: "AMP002", setup: func(t *testing.T, p string) {
			write(t, p, amp)
			if err := os.Link(p, p+".link"); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "symlink.py", report: "", setup: func(t *testing.T, p string) {
			os.Symlink("nowhere/target.py", p) // dangling: the walk skips links
		}},
		{name: "loop.py", setup: func(t *testing.T, p string) {
			os.Symlink(filepath.Base(p), p)
		}},
		{name: "fifo.py", report: "", setup: func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "dir.py", setup: func(t *testing.T, p string) {
			write(t, filepath.Join(p, "inner.py"), amp)
		}, report: "inner.py:2:5: AMP002"},
	}
	return hs
}

// MaxBig is just over the file size limit.
const MaxBig = 8<<20 + 64

// snapshotTree records every regular file's bytes under dir.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func noCrash(t *testing.T, what, stderr string, code int) {
	t.Helper()
	if code < 0 || code > 2 || strings.Contains(stderr, "panic") || strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("%s: exit %d\n%s", what, code, truncate(stderr))
	}
}

func TestAdversarialInputs(t *testing.T) {
	dir := t.TempDir()
	const good = "import torch\ns = torch.cuda.amp.GradScaler()\n"
	write(t, filepath.Join(dir, "0_first_good.py"), good)
	write(t, filepath.Join(dir, "zz_last_good.py"), good)
	hs := hostileInputs()
	for _, h := range hs {
		p := filepath.Join(dir, h.name)
		if h.setup != nil {
			h.setup(t, p)
		} else if err := os.WriteFile(p, []byte(h.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Each file alone: check reports it.
	for _, h := range hs {
		out, errOut, code := run(t, dir, "", "check", "--no-progress", h.name)
		noCrash(t, "check "+h.name, errOut, code)
		if h.report != "" && !strings.Contains(out+errOut, h.report) {
			t.Errorf("check %q: want %q in the output, exit %d:\n%s\n%s", h.name, h.report, code, truncate(out), truncate(errOut))
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 2048 {
				// A frame prints a window of a long line: 20,000 findings
				// on a 600 KB line must not print the line 20,000 times.
				t.Errorf("check %q: an output line of %d bytes", h.name, len(line))
				break
			}
		}
		if strings.Contains(out, "All checks passed") && code != 0 {
			t.Errorf("check %q: 'All checks passed!' with exit %d", h.name, code)
		}
	}

	// The whole directory: every good file still reported, then fixed.
	before := snapshotTree(t, dir)
	out, errOut, code := run(t, dir, "", "check", "--no-progress", ".")
	noCrash(t, "check .", errOut, code)
	for _, g := range []string{"0_first_good.py:2:5: AMP002", "zz_last_good.py:2:5: AMP002"} {
		if !strings.Contains(out, g) {
			t.Errorf("check .: %q missing:\n%s", g, truncate(out))
		}
	}
	diff, errOut, code := run(t, dir, "", "fix", "--diff", "--no-progress", ".")
	noCrash(t, "fix --diff .", errOut, code)
	if after := snapshotTree(t, dir); len(after) != len(before) {
		t.Errorf("fix --diff wrote files")
	}
	_, errOut, code = run(t, dir, "", "fix", "--no-progress", ".")
	noCrash(t, "fix .", errOut, code)
	after := snapshotTree(t, dir)
	fixable := map[string]bool{filepath.Join(dir, "0_first_good.py"): true, filepath.Join(dir, "zz_last_good.py"): true, filepath.Join(dir, "dir.py", "inner.py"): true}
	for _, h := range hs {
		if h.fixed {
			fixable[filepath.Join(dir, h.name)] = true
		}
	}
	for p, was := range before {
		now, ok := after[p]
		switch {
		case !ok:
			t.Errorf("fix lost %s", p)
		case fixable[p] && now == was:
			t.Errorf("fix did not fix %s", p)
		case fixable[p] && !strings.Contains(diff, strings.TrimPrefix(now, "import torch\n")[:10]):
			t.Errorf("fix --diff did not show the fix of %s", p)
		case !fixable[p] && now != was:
			t.Errorf("fix rewrote %s, which it must leave alone", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("fix left %s behind", p)
		}
	}
}

// Every hostile input through stdin: check never crashes, fix - echoes
// what it does not fix.
func TestAdversarialStdin(t *testing.T) {
	dir := t.TempDir()
	for _, h := range hostileInputs() {
		if h.setup != nil || len(h.content) > 1<<20 {
			continue // not a byte stream; the big ones are in TestStdinFixEchoesInputItDoesNotFix
		}
		_, errOut, code := run(t, dir, h.content, "check", "-")
		noCrash(t, "check - "+h.name, errOut, code)
		out, errOut, code := run(t, dir, h.content, "fix", "-")
		noCrash(t, "fix - "+h.name, errOut, code)
		if !h.fixed && out != h.content {
			t.Errorf("fix - %s: %d bytes out, want its %d bytes unchanged", h.name, len(out), len(h.content))
		}
		if h.fixed && (out == h.content || !strings.Contains(out, "torch.amp.GradScaler(\"cuda\")")) {
			t.Errorf("fix - %s: not fixed", h.name)
		}
		if strings.Count(out, "\n") != strings.Count(h.content, "\n") || strings.Count(out, "\r") != strings.Count(h.content, "\r") {
			t.Errorf("fix - %s: line endings changed: %q", h.name, truncate(out))
		}
	}
}
