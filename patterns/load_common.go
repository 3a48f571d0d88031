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
	// Splat: some settings arrive through `**kwargs` of a dict gpuopt
	// reads (rewrite.Model.DictEntries); WorkersMaybe: num_workers is set
	// there on some paths only (`if use_cuda: kwargs.update(...)`).
	Splat        bool
	WorkersMaybe bool
}

// has reports whether the loader sets keyword name, by a keyword or in
// its **kwargs (on any path).
func (gl gpuLoader) has(p *Pass, name string) bool {
	v, _, found := callKeyword(p, gl.Call, name)
	return found || v != nil
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
			if len(rewrite.PositionalArgs(call)) > 5 {
				continue
			}
			if rewrite.HasSplat(call) && !splatsKnown(p, call) {
				continue // settings we cannot read
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
			workers, maybe, _ := callKeyword(p, call, "num_workers")
			gl := gpuLoader{Call: call, Binding: b, PerEpoch: perEpoch, Workers: workers, Splat: rewrite.HasSplat(call), WorkersMaybe: maybe}
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

// callKeyword returns the value a call passes for keyword name: an
// explicit keyword argument, or an entry of a `**dict` splat whose keys
// gpuopt reads (rewrite.Model.DictEntries). maybe: set on some paths
// only; found: present at all.
func callKeyword(p *Pass, call *rewrite.Node, name string) (value *rewrite.Node, maybe, found bool) {
	if v := rewrite.KeywordValue(call, name); v != nil {
		return v, false, true
	}
	args := call.ChildByField("arguments")
	if args == nil {
		return nil, false, false
	}
	for _, a := range args.NamedChildren() {
		if a.Type != "dictionary_splat" {
			continue
		}
		entries, _ := p.Model.DictEntries(a.NamedChildren()[0], call)
		for _, e := range entries {
			if e.Key == name {
				return e.Value, e.Maybe, true
			}
		}
	}
	return nil, false, false
}

// splatsKnown reports that every `**` splat of call is a dict whose keys
// gpuopt reads completely (and no `*args` splat hides positionals).
func splatsKnown(p *Pass, call *rewrite.Node) bool {
	for _, a := range call.ChildByField("arguments").NamedChildren() {
		switch a.Type {
		case "list_splat":
			return false
		case "dictionary_splat":
			if _, ok := p.Model.DictEntries(a.NamedChildren()[0], call); !ok {
				return false
			}
		}
	}
	return true
}
