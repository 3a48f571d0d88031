package lsp

import (
	"os"
	"runtime/debug"
)

// serverGCPercent is the garbage collector's target for a running server.
// Each edit re-analyses the document and drops the previous analysis, so
// the live heap is small and the garbage large: with the default of 100
// the collector runs during most edits. 400 trades a few tens of MB of
// heap for ~30% less latency per edit (go test ./lsp -bench DidChange,
// .notes/lsp-bench.txt).
const serverGCPercent = 400

// TuneRuntime applies the server's garbage-collector setting unless the
// user chose one with GOGC. Call it once before Serve in a process that
// only serves the editor.
func TuneRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
}
