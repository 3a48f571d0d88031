package patterns

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuopt/gpuopt/rewrite"
)

// benchFiles returns the realistic ML sources the benchmarks run on: the
// corpus's cases and examples, or every .py under $GPUOPT_BENCH_DIR (for
// measuring on a real repository checked out beside the project).
func benchFiles(b *testing.B) [][]byte {
	root := os.Getenv("GPUOPT_BENCH_DIR")
	if root == "" {
		root = "../corpus"
	}
	var files [][]byte
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".py" {
			if src, err := os.ReadFile(path); err == nil && Relevant(src) {
				files = append(files, src)
			}
		}
		return nil
	})
	if len(files) == 0 {
		b.Fatal("no benchmark input")
	}
	return files
}

func totalBytes(files [][]byte) int64 {
	n := 0
	for _, f := range files {
		n += len(f)
	}
	return int64(n)
}

// BenchmarkParseOnly is tree-sitter parsing (and copying the tree into Go
// nodes) of files that import a target library: the floor for checking.
// Each file is released after use, as gpuopt check does, so both
// benchmarks parse into recycled memory.
func BenchmarkParseOnly(b *testing.B) {
	files := benchFiles(b)
	b.SetBytes(totalBytes(files))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			rewrite.Parse("bench.py", src).Release()
		}
	}
}

// BenchmarkCheck is what `gpuopt check` does per file: parse, build the
// semantic model, run every rule. Besides the time per pass over the
// files it reports how that time splits: parse-ms (the parse, as in
// BenchmarkParseOnly) and run-ms (the model and the rules), and their
// ratio run/parse. Check ÷ parse-only is 1 + run/parse; measured within one
// process, file by file, the ratio is steadier than the quotient of two
// benchmarks run at different moments.
func BenchmarkCheck(b *testing.B) {
	files := benchFiles(b)
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, CPUCount: 16}
	var parse, run time.Duration
	b.SetBytes(totalBytes(files))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			start := time.Now()
			f := rewrite.Parse("bench.py", src)
			parsed := time.Now()
			Run(f, Selection{}, env)
			f.Release() // as gpuopt check does once a file is reported
			run += time.Since(parsed)
			parse += parsed.Sub(start)
		}
	}
	b.ReportMetric(float64(parse.Microseconds())/1e3/float64(b.N), "parse-ms")
	b.ReportMetric(float64(run.Microseconds())/1e3/float64(b.N), "run-ms")
	b.ReportMetric(float64(run)/float64(parse), "run/parse")
}

// BenchmarkSkipIrrelevant is the cost of recognising a file that imports
// none of the target libraries.
func BenchmarkSkipIrrelevant(b *testing.B) {
	src := []byte("import os\nimport json\n\n\ndef main():\n    print(json.dumps(os.environ.copy()))\n")
	for len(src) < 64<<10 {
		src = append(src, src...)
	}
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if Relevant(src) {
			b.Fatal("irrelevant file judged relevant")
		}
	}
}
