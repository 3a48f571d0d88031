package lsp

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

// BenchmarkPartsReparse is the engine's incremental reparse of the
// 5,000-line file after a one-character edit (tree-sitter plus copying the
// tree into Go nodes, into the released previous version's memory): the
// floor under didChange.
func BenchmarkPartsReparse(b *testing.B) {
	src := []byte(trainingFile(5000))
	f := rewrite.Parse("bench.py", src)
	at := strings.Index(string(src[len(src)/2:]), `"eta": 0.`) + len(src)/2 + len(`"eta": 0.`)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nb := append([]byte(nil), f.Src.Bytes...)
		nb[at] = "12"[i%2]
		t0 := time.Now()
		old := f
		f = rewrite.Reparse(old, nb, rewrite.Edit{Start: at, End: at + 1, New: string(nb[at])})
		old.Release() // as the server does once no request holds the old version
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportLatencies(b, lat)
}

// BenchmarkPartsAnalyze is patterns.Run over the 5,000-line file.
func BenchmarkPartsAnalyze(b *testing.B) {
	src := []byte(trainingFile(5000))
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := rewrite.Parse("bench.py", src)
		b.StartTimer()
		t0 := time.Now()
		patterns.Run(f, patterns.Selection{}, nil)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportLatencies(b, lat)
}
