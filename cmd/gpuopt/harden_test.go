package main

// Regression tests for issue 16's hostile inputs: each failed before its
// fix. The generated corpus run on every input is in adversarial_test.go.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

const ampSource = "import torch\ns = torch.cuda.amp.GradScaler()\n"

// deepSource is a file a million unary minuses deep (item 1).
func deepSource() string {
	return "import torch\ny = " + strings.Repeat("-", 1_000_000) + "1\n"
}

func TestDeepNestingIsReportedAndOthersStillChecked(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a_good.py"), ampSource)
	write(t, filepath.Join(dir, "b_deep.py"), deepSource())
	write(t, filepath.Join(dir, "c_good.py"), ampSource)
	out, errOut, code := run(t, dir, "", "check", ".")
	if code != 1 || !strings.Contains(out, "a_good.py:2:5: AMP002") || !strings.Contains(out, "c_good.py:2:5: AMP002") ||
		!strings.Contains(out, "b_deep.py:2:") || !strings.Contains(out, "E999") || !strings.Contains(out, "nesting too deep") {
		t.Errorf("check: exit %d\n%s\n%s", code, out, errOut)
	}
	_, errOut, code = run(t, dir, "", "fix", ".")
	if code != 1 || !strings.Contains(errOut, "b_deep.py: has a syntax error: not rewritten") {
		t.Errorf("fix: exit %d\n%s", code, errOut)
	}
	for _, name := range []string{"a_good.py", "c_good.py"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); !strings.Contains(string(b), `torch.amp.GradScaler("cuda")`) {
			t.Errorf("fix: %s not fixed:\n%s", name, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b_deep.py")); string(b) != deepSource() {
		t.Errorf("fix: the deep file changed")
	}
}

// Item 2: `fix -` must echo what it does not fix, or a pipeline into the
// file empties it.
func TestStdinFixEchoesInputItDoesNotFix(t *testing.T) {
	dir := t.TempDir()
	big := "import torch\n" + strings.Repeat("x = 1\n", (9<<20)/6)
	for name, in := range map[string]string{
		"NUL bytes":       "import torch\x00\nx = torch.cuda.amp.GradScaler()\n",
		"not UTF-8":       "import torch\n# \xff\xfe\nx = torch.cuda.amp.GradScaler()\n",
		"syntax error":    "import torch\nx = torch.cuda.amp.GradScaler(\n",
		"Python 2":        "import torch\nprint 'x'\nx = torch.cuda.amp.GradScaler()\n",
		"too large":       big,
		"deep":            deepSource(),
		"not relevant":    "import os\n",
		"byte order mark": "\ufeff" + ampSource,
	} {
		out, errOut, code := run(t, dir, in, "fix", "-")
		want := in
		if name == "byte order mark" {
			want = "\ufeffimport torch\ns = torch.amp.GradScaler(\"cuda\")\n"
		}
		if out != want {
			t.Errorf("%s: fix - wrote %d bytes, want the %d bytes of its input (exit %d, %s)", name, len(out), len(want), code, truncate(errOut))
		}
	}
	if _, errOut, code := run(t, dir, big, "check", "-"); code != 0 || !strings.Contains(errOut, "too large") {
		t.Errorf("check - of a huge input: exit %d, %s", code, errOut)
	}
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// runAs runs gpuopt as another user (the tests run as root, who reads any
// directory).
func runAs(t *testing.T, uid uint32, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(gpuoptBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GPUOPT_TARGET_GPU=", "HOME=/tmp")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// openToAll makes the test binary and dir reachable by another user.
func openToAll(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(gpuoptBin), dir} {
		for p := d; p != "/" && p != "."; p = filepath.Dir(p) {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm()&0o005 != 0o005 {
				if err := os.Chmod(p, st.Mode().Perm()|0o755); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			os.Chmod(p, 0o777)
		}
		return nil
	})
}

// Item 3: an unreadable directory is reported and the walk goes on.
func TestUnreadableDirectoryDoesNotStopTheWalk(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "x.py"), ampSource)
	write(t, filepath.Join(dir, "b_locked", "y.py"), ampSource)
	write(t, filepath.Join(dir, "c", "z.py"), ampSource)
	openToAll(t, dir)
	if err := os.Chmod(filepath.Join(dir, "b_locked"), 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(dir, "b_locked"), 0o755)
	var out, errOut string
	var code int
	if os.Geteuid() == 0 {
		out, errOut, code = runAs(t, 65534, dir, "check", ".")
	} else {
		out, errOut, code = run(t, dir, "", "check", ".")
	}
	if code != 2 || !strings.Contains(out, filepath.Join("a", "x.py")) || !strings.Contains(out, filepath.Join("c", "z.py")) ||
		!strings.Contains(errOut, "b_locked") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// Item 7: a byte order mark hides nothing, positions skip it, a fix keeps it.
func TestByteOrderMarkFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bom.py")
	write(t, path, "\ufeffimport torch; s = torch.cuda.amp.GradScaler()\nx = (\n")
	out, _, code := run(t, dir, "", "check", "bom.py")
	if code != 1 || !strings.Contains(out, "bom.py:1:19: AMP002") || !strings.Contains(out, "bom.py:2:") || !strings.Contains(out, "E999") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	write(t, path, "\ufeffimport torch; s = torch.cuda.amp.GradScaler()\n")
	if _, errOut, code := run(t, dir, "", "fix", "bom.py"); code != 0 {
		t.Errorf("fix: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != "\ufeffimport torch; s = torch.amp.GradScaler(\"cuda\")\n" {
		t.Errorf("fix: %q", b)
	}
}

// Item 9: nothing from a file name or a message may start a workflow
// command of its own, and properties are %-encoded.
func TestGitHubOutputEscapesNamesAndMessages(t *testing.T) {
	dir := t.TempDir()
	name := "a\n::error file=x.py::injected,b:c%d.py"
	write(t, filepath.Join(dir, name), ampSource)
	out, _, code := run(t, dir, "", "check", "--output-format", "github", name)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 1 || len(lines) != 1 {
		t.Fatalf("exit %d, want one line:\n%s", code, out)
	}
	want := "file=a%0A%3A%3Aerror file=x.py%3A%3Ainjected%2Cb%3Ac%25d.py,line=2,col=5,"
	if !strings.HasPrefix(lines[0], "::warning title=gpuopt (AMP002),") || !strings.Contains(lines[0], want) {
		t.Errorf("got %q\nwant it to contain %q", lines[0], want)
	}
}

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Item 10: a --diff that git apply takes, from the root or a subdirectory,
// whatever the names, and of exactly the files fix would write.
func TestDiffAppliesWithGit(t *testing.T) {
	root := gitRepo(t)
	names := []string{"top.py", "sub/in sub.py", "sub/tab\there.py", "sub/new\nline.py", `sub/quote".py`, "sub/é.py", "sub/back\\slash.py"}
	for _, n := range names {
		write(t, filepath.Join(root, n), ampSource)
	}
	write(t, filepath.Join(root, "sub/readonly.py"), ampSource)
	os.Chmod(filepath.Join(root, "sub/readonly.py"), 0o444)
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "init")
	sub := filepath.Join(root, "sub")
	diff, errOut, code := run(t, sub, "", "fix", "--diff", "..")
	if code != 1 {
		t.Fatalf("fix --diff: exit %d, %s", code, errOut)
	}
	if strings.Contains(diff, "readonly.py") || strings.Contains(diff, "../") {
		t.Errorf("the diff names a file fix would not write, or leaks '..':\n%s", diff)
	}
	patch := filepath.Join(t.TempDir(), "fix.diff")
	os.WriteFile(patch, []byte(diff), 0o644)
	checked := git(t, root, "apply", "--check", "-v", patch)
	for _, n := range names {
		q := n
		if strings.ContainsAny(n, "\t\n\"\\é") {
			q = rewrite.QuoteGitPath(n)
		}
		if !strings.Contains(checked, "Checking patch "+q+"...") {
			t.Errorf("git apply from the root did not check %q:\n%s\n%s", n, checked, diff)
		}
	}
	// From the subdirectory, git applies the files below it.
	checked = git(t, sub, "apply", "--check", "-v", patch)
	if !strings.Contains(checked, "Checking patch sub/in sub.py...") {
		t.Errorf("git apply from sub/:\n%s", checked)
	}
	// fix writes exactly what the diff showed.
	git(t, root, "apply", patch)
	git(t, root, "stash", "-q")
	if _, errOut, _ := run(t, sub, "", "fix", ".."); !strings.Contains(errOut, "readonly.py: read-only") {
		t.Errorf("fix: %s", errOut)
	}
	if st := git(t, root, "stash", "show", "-p"); st != "" {
		fixed := git(t, root, "diff")
		git(t, root, "checkout", "-q", ".")
		git(t, root, "stash", "pop", "-q")
		if again := git(t, root, "diff"); again != fixed {
			t.Errorf("fix and git apply of --diff differ:\n%s\n---\n%s", fixed, again)
		}
	}
}

// Outside a repository, paths are relative to the working directory
// without '..' in them.
func TestDiffOutsideARepository(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "x.py"), ampSource)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	diff, _, _ := run(t, filepath.Join(dir, "sub"), "", "fix", "--diff", "../x.py")
	if !strings.Contains(diff, "--- a/") || strings.Contains(diff, "/../") || strings.Contains(diff, "a/..") {
		t.Errorf("diff:\n%s", diff)
	}
}

// The small ones.
func TestConfigAndInputErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "x.py"), ampSource)
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\ntarget-versions = \"2.4\"\n")
	if _, errOut, code := run(t, dir, "", "check", "x.py"); code != 2 || !strings.Contains(errOut, "target-versions") {
		t.Errorf("target-versions as a string: exit %d, %s", code, errOut)
	}
	os.Remove(filepath.Join(dir, "pyproject.toml"))
	if _, errOut, code := run(t, dir, "", "check", "--config", "missing.toml", "x.py"); code != 2 || !strings.Contains(errOut, "missing.toml") || strings.Contains(errOut, "no [tool.gpuopt]") {
		t.Errorf("--config missing.toml: exit %d, %s", code, errOut)
	}
	if out, errOut, code := run(t, dir, "", "check", "missing.py"); code != 2 || strings.Contains(out, "All checks passed") {
		t.Errorf("check missing.py: exit %d, %s%s", code, out, errOut)
	}
	// A closed stdin is not an empty file.
	cmd := exec.Command("sh", "-c", `"$0" check - <&-`, gpuoptBin)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "stdin") || strings.Contains(string(out), "All checks passed") {
		t.Errorf("closed stdin: %v\n%s", err, out)
	}
	// An empty one is.
	if out, _, code := run(t, dir, "", "check", "-"); code != 0 || !strings.Contains(out, "All checks passed") {
		t.Errorf("empty stdin: exit %d, %s", code, out)
	}
}

// TestTargetVersionsTables: the two TOML spellings of the table that
// --help shows (inline, and a [tool.gpuopt.target-versions] section) both
// pin the versions the rules assume; OPT002 fires only below torch 2.0.
// (The TOML library names both "Hash": blind sample S19M found the inline
// form from --help rejected.)
func TestTargetVersionsTables(t *testing.T) {
	src := "import torch\nmodel = torch.nn.Linear(8, 2).cuda()\nopt = torch.optim.Adam(model.parameters())\nfor step in range(10):\n    opt.zero_grad()\n    model(torch.ones(4, 8, device=\"cuda\")).sum().backward()\n    opt.step()\n"
	for _, toml := range []string{
		"[tool.gpuopt]\ntarget-versions = { torch = \"1.13\", xgboost = \"2.1\" }\n",
		"[tool.gpuopt.target-versions]\ntorch = \"1.13\"\n",
	} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "x.py"), src)
		write(t, filepath.Join(dir, "pyproject.toml"), toml)
		out, errOut, code := run(t, dir, "", "check", "--select", "OPT002", "x.py")
		if code != 1 || !strings.Contains(out, "OPT002") {
			t.Errorf("%q: exit %d, want the OPT002 finding of torch 1.13\n%s%s", toml, code, out, errOut)
		}
	}
}

// TestTargetVersionsOverrideOldIdioms: code written for torch 0.3
// (`Variable(..., volatile=True)`, `loss.data[0]`) is read as running
// there, so advice for newer releases stays silent; a torch version set
// in [tool.gpuopt] target-versions wins over those signs (blind sample
// S26B's GZSL code, silent under an explicit torch 2.5).
func TestTargetVersionsOverrideOldIdioms(t *testing.T) {
	src := "import torch\nfrom torch.autograd import Variable\n\nnet = torch.nn.Linear(312, 2048).cuda()\nopt = torch.optim.Adam(net.parameters(), lr=1e-4)\nfor step in range(1000):\n    noise = Variable(torch.randn(64, 312, device=\"cuda\"), volatile=True)\n    loss = net(noise).pow(2).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    print(loss.data[0])\n"
	dir := t.TempDir()
	write(t, filepath.Join(dir, "x.py"), src)
	if out, errOut, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--select", "OPT001", "x.py"); strings.Contains(out, "OPT001") {
		t.Errorf("torch 0.3 code without a configured version: want no OPT001 (fused arrived in 2.0)\n%s%s", out, errOut)
	}
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\ntarget-versions = { torch = \"2.5\" }\n")
	if out, errOut, code := run(t, dir, "", "check", "--target-gpu", "h100", "--select", "OPT001", "x.py"); code != 1 || !strings.Contains(out, "OPT001") {
		t.Errorf("an explicit torch 2.5: exit %d, want the OPT001 finding\n%s%s", code, out, errOut)
	}
}
