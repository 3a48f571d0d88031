package patterns

import "testing"

// TestOPT002NotOnHopper checks that a script pinned below PyTorch 2.0 gets
// OPT002 for an A100 and not for an H100, which PyTorch runs from 2.0,
// where set_to_none=True is the default.
func TestOPT002NotOnHopper(t *testing.T) {
	src := corpusFile(t, "OPT002/hopper_target.py")
	for _, c := range []struct {
		gpu  string
		want int
	}{{"a100-80gb", 1}, {"h100", 0}} {
		env := &Env{GPU: targetGPU(t, c.gpu), Versions: DefaultVersions}
		env.Versions.Torch = Version{1, 13}
		if got := ruleFindings(src, "OPT002", env); len(got) != c.want {
			t.Errorf("torch 1.13 on %s: %d OPT002 findings, want %d", c.gpu, len(got), c.want)
		}
	}
}
