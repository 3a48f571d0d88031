package patterns

import (
	"strconv"

	"github.com/gpuopt/gpuopt/rewrite"
)

// gpuLoader is a DataLoader construction that feeds a GPU hot loop.
type gpuLoader struct {
	Call     *rewrite.Node
	Binding  *rewrite.Binding
	PerEpoch bool // iterated more than once (inside an epoch loop)
	// Workers is the num_workers expression (nil when absent); WorkersN its
	// literal value when known.
	Workers  *rewrite.Node
	WorkersN int
	Known    bool // WorkersN is a known literal
}

// gpuLoaders returns the file's DataLoaders that feed a training or model
// loop, in a file that visibly runs on CUDA. Loaders built with **kwargs or
// more than five positional arguments (num_workers is the sixth) are left
// out: their settings are not visible.
func gpuLoaders(p *Pass) []gpuLoader {
	return p.Memo("torch.gpuLoaders", func() any {
		var out []gpuLoader
		if !p.Model.UsesCUDA() {
			return out
		}
		at := map[*rewrite.Node]int{} // call -> index in out
		for _, site := range loaderSites(p) {
			call, b := site.Call, site.Binding
			if rewrite.HasSplat(call) || len(rewrite.PositionalArgs(call)) > 5 {
				continue
			}
			hot, perEpoch, _ := loaderFeeds(p, b)
			if !hot {
				continue
			}
			if k, ok := at[call]; ok {
				// The same construction reached through another call of
				// its helper.
				out[k].PerEpoch = out[k].PerEpoch || perEpoch
				continue
			}
			gl := gpuLoader{Call: call, Binding: b, PerEpoch: perEpoch, Workers: rewrite.KeywordValue(call, "num_workers")}
			if gl.Workers == nil {
				gl.Known = true
			} else {
				gl.WorkersN, gl.Known = intLiteral(p, gl.Workers)
			}
			at[call] = len(out)
			out = append(out, gl)
		}
		return out
	}).([]gpuLoader)
}

// workerCount is the num_workers gpuopt proposes: the host's CPU count
// capped at 8, or 4 when the count is unknown.
func workerCount(p *Pass) (int, string) {
	n := p.Env.CPUCount
	if n <= 0 {
		return 4, "4 workers (the CPU count is unknown: adjust to the training host)"
	}
	if n > 8 {
		n = 8
	}
	return n, strconv.Itoa(n) + " workers (min of the host's " + strconv.Itoa(p.Env.CPUCount) + " CPUs and 8)"
}
