package workspace

import (
	"runtime/debug"
	"testing"
)

func TestTuneRuntimeRespectsGOGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)

	t.Setenv("GOGC", "")
	TuneRuntime()
	if got := debug.SetGCPercent(100); got != BatchGCPercent {
		t.Errorf("GC percent %d after TuneRuntime, want %d", got, BatchGCPercent)
	}
	t.Setenv("GOGC", "50")
	TuneRuntime()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("TuneRuntime changed the GC percent to %d although GOGC is set", got)
	}
}
