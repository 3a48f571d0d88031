package workspace

import (
	"os"
	"runtime/debug"
)

// BatchGCPercent is the garbage collector's target for gpuopt check and
// fix: a short-lived process whose live heap is the few files in flight and
// whose garbage is each file's tree and model once it is reported. The
// default of 100 collects every few files; 400 trades some tens of MB of
// heap for a quarter less time in the collector (.notes/check-bench.txt).
const BatchGCPercent = 400

// TuneRuntime applies BatchGCPercent unless the user chose GOGC. The
// check benchmarks call it too, to measure what the command does.
func TuneRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(BatchGCPercent)
	}
}
