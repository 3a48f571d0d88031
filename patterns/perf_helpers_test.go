package patterns

import (
	"strings"
	"testing"
)

// containsAutocast must agree with lower-casing then searching.
func TestContainsAutocast(t *testing.T) {
	for _, s := range []string{"", "autocast", "torch_autocast_ctx", "AutoCast", "AUTOCAST", "auto_cast",
		"autoca", "ſautocast", "Ｋautocast", "x" + "AUTOcAsT" + "y", "İautocast", "naïve", "autocaſt"} {
		if got, want := containsAutocast(s), strings.Contains(strings.ToLower(s), "autocast"); got != want {
			t.Errorf("containsAutocast(%q) = %v, want %v", s, got, want)
		}
	}
}
