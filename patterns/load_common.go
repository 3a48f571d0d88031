package patterns

import (
	"strconv"
	"strings"

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
	// DefaultNone: num_workers is a command-line flag whose default is 0
	// (`--num_workers`, default=0): the script runs without workers
	// unless the user asks for them.
	DefaultNone bool
	// Across, when set, says the loop it feeds is in another module of
	// the project (load_across.go): the assumption a message states.
	Across string
}

// everyLoop reports whether the loader feeds at least one loop this file
// shows (loaderFeeds) and each satisfies pred.
func (gl gpuLoader) everyLoop(p *Pass, pred func(loop *rewrite.Node) bool) bool {
	if gl.Binding == nil {
		return false
	}
	_, _, loops := loaderFeeds(p, gl.Binding)
	if len(loops) == 0 {
		return false
	}
	for _, loop := range loops {
		if !pred(loop) {
			return false
		}
	}
	return true
}

// has reports whether the loader sets keyword name, by a keyword or in
// its **kwargs (on any path).
func (gl gpuLoader) has(p *Pass, name string) bool {
	v, _, found := callKeyword(p, gl.Call, name)
	return found || v != nil || setAfter(gl, name)
}

// setAfter reports a loader whose setting name is assigned after it is
// built (`train_loader.pin_memory = True`, blind sample S37Q's ML-GCN):
// the DataLoader reads pin_memory and num_workers when it starts each
// pass, so the assignment takes effect.
func setAfter(gl gpuLoader, name string) bool {
	if gl.Binding == nil {
		return false
	}
	for _, u := range gl.Binding.Uses {
		attr := u.Parent
		if attr == nil || attr.Type != "attribute" || attr.ChildByField("object") != u || attr.ChildByField("attribute").Text() != name {
			continue
		}
		if asg := attr.Parent; asg != nil && asg.Type == "assignment" && asg.ChildByField("left") == attr {
			return true
		}
	}
	return false
}

// gpuLoaders returns the file's DataLoaders that feed a training or model
// loop, in a file that visibly runs on CUDA. Loaders built with **kwargs or
// more than five positional arguments (num_workers is the sixth) are left
// out: their settings are not visible.
func gpuLoaders(p *Pass) []gpuLoader {
	return p.Memo("torch.gpuLoaders", func() any {
		var out []gpuLoader
		at := map[*rewrite.Node]int{} // call -> index in out
		if !p.Model.UsesCUDA() {
			return acrossLoaders(p, out, at)
		}
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
			at[call] = len(out)
			out = append(out, newGPULoader(p, call, b, perEpoch, workers, maybe))
		}
		return acrossLoaders(p, out, at)
	}).([]gpuLoader)
}

// newGPULoader describes the loader call builds, bound to b, whose
// num_workers is workers as written (nil when the call passes none; maybe
// when a splatted dict may set it).
func newGPULoader(p *Pass, call *rewrite.Node, b *rewrite.Binding, perEpoch bool, workers *rewrite.Node, maybe bool) gpuLoader {
	gl := gpuLoader{Call: call, Binding: b, PerEpoch: perEpoch, Workers: workers, Splat: rewrite.HasSplat(call), WorkersMaybe: maybe}
	if workers == nil {
		gl.Known = true
	} else {
		gl.WorkersN, gl.Known = intLiteral(p, workers)
		if !gl.Known {
			v, ok := boundValue(p, workers)
			gl.DefaultNone = ok && v == 0 || zeroDefaultParameter(p, workers)
		}
	}
	return gl
}

// zeroDefaultParameter reports a name that is a parameter of its
// function with the default 0 (`def get_dataloaders(..., num_workers: int
// = 0)`): the loader runs without workers unless a caller asks, as with
// a flag whose default is 0 (blind sample S39AA's SST forecaster, whose
// callers pass a config's 0, was told to keep workers it does not start).
func zeroDefaultParameter(p *Pass, n *rewrite.Node) bool {
	if n == nil || n.Type != "identifier" {
		return false
	}
	b := p.Model.Binding(n)
	if b == nil || b.Kind != rewrite.ParamBinding {
		return false
	}
	v := parameterDefault(b.Ident)
	return v != nil && v.Type == "integer" && v.Text() == "0"
}

// workerCount is the num_workers gpuopt proposes, as source text, with
// the edits it needs. The script runs on the training host, not where
// gpuopt runs: the count is the expression `min(8, os.cpu_count() or 1)`
// (adding `import os` where the file lacks it), and a literal (this
// host's CPU count capped at 8) only when the profile comes from NVML, that
// is when gpuopt runs on the GPU host itself.
func workerCount(p *Pass, site *rewrite.Node) (string, string, []rewrite.Edit) {
	n := p.Env.CPUCount
	if p.Env.GPU.Source == "nvml" && n > 0 {
		n = min(n, 8)
		return strconv.Itoa(n), strconv.Itoa(n) + " workers (min of this GPU host's " + strconv.Itoa(p.Env.CPUCount) + " CPUs and 8)", nil
	}
	why := "min(8, CPU count) workers of the training host"
	if spelled, ok := p.Model.LocalName(site, "os.cpu_count"); ok {
		return "min(8, " + spelled + "() or 1)", why, nil
	}
	if e, ok := importOSEdit(p); ok {
		return "min(8, os.cpu_count() or 1)", why, []rewrite.Edit{e}
	}
	// `os` means something else here: a literal, as a last resort.
	if n <= 0 {
		return "4", "4 workers (the training host's CPU count is unknown: adjust)", nil
	}
	n = min(n, 8)
	return strconv.Itoa(n), strconv.Itoa(n) + " workers (min of this host's " + strconv.Itoa(p.Env.CPUCount) + " CPUs and 8: adjust to the training host)", nil
}

// importOSEdit adds `import os` at module level, after the imports that
// open the module (rewrite.File.ImportAnchor). ok is false when the module
// binds `os` to something else.
func importOSEdit(p *Pass) (rewrite.Edit, bool) {
	if bs, ok := p.Model.Module.Bindings["os"]; ok {
		for _, b := range bs {
			if b.Kind != rewrite.ImportBinding || b.Qualified != "os" {
				return rewrite.Edit{}, false
			}
		}
	}
	return p.Model.InsertAfterImports("import os"), true
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

// oneBatch reports a loader whose batch is its whole dataset
// (`DataLoader(test_set, batch_size=len(test_set))`): one batch a pass,
// which one worker or the main process builds alone (blind sample S15E's
// keyword-spotting evaluation).
func oneBatch(gl gpuLoader) bool {
	ds, bs := rewrite.Arg(gl.Call, 0, "dataset"), rewrite.Arg(gl.Call, 1, "batch_size")
	if ds == nil || bs == nil || bs.Type != "call" || bs.ChildByField("function").Text() != "len" {
		return false
	}
	args := rewrite.PositionalArgs(bs)
	return len(args) == 1 && args[0].Text() == ds.Text()
}

// cudaDefaultTensors reports a file that makes CUDA the default for new
// tensors (`torch.set_default_tensor_type("torch.cuda.FloatTensor")`,
// `torch.set_default_device("cuda")`): a loader's collate may then build
// its batches on the GPU, which forked workers cannot touch and
// pin_memory refuses, so worker and pinning advice does not apply (blind
// sample S17C's nsf, where the fix would have crashed the first batch).
func cudaDefaultTensors(p *Pass) bool {
	if !p.File.SpellsAny([]string{"set_default_tensor_type", "set_default_device"}) {
		return false
	}
	for _, call := range p.Model.CallsTo("torch.set_default_tensor_type", "torch.set_default_device") {
		args := rewrite.PositionalArgs(call)
		if len(args) == 0 {
			continue
		}
		if strings.Contains(args[0].Text(), "cuda") {
			return true
		}
		if k := p.Model.DeviceOf(args[0]); k == rewrite.DeviceCUDA || k == rewrite.DeviceMaybeCUDA {
			return true
		}
	}
	return false
}

// smallImageDatasets are torchvision's datasets of small images held in
// memory (28x28 to 32x32; SVHN's and STL-10's files are loaded whole).
var smallImageDatasets = map[string]bool{
	"MNIST": true, "FashionMNIST": true, "KMNIST": true, "EMNIST": true, "QMNIST": true,
	"CIFAR10": true, "CIFAR100": true, "SVHN": true, "USPS": true,
}

// smallImageTraining reports a file whose GPU loaders all read
// torchvision datasets of small images (smallImageDatasets), directly or
// through a split or a subset of one.
func smallImageTraining(p *Pass) bool {
	return p.Memo("load.smallImageTraining", func() any {
		loaders := gpuLoaders(p)
		for _, gl := range loaders {
			ds := rewrite.Arg(gl.Call, 0, "dataset")
			if ds == nil {
				return false
			}
			origins := datasetOrigins(p, ds, 0)
			for _, o := range origins {
				if o.Expr == nil || o.Expr.Type != "call" {
					return false
				}
				name, ok := strings.CutPrefix(p.Model.CalleeName(o.Expr), "torchvision.datasets.")
				if !ok || !smallImageDatasets[name] {
					return false
				}
			}
			if len(origins) == 0 {
				return false
			}
		}
		return len(loaders) > 0
	}).(bool)
}

// singleSmallImages reports a loader of one sample a batch (batch_size=1
// by a literal, a constant or a flag's default) over a torchvision dataset
// of small in-memory images: one item costs tens of microseconds on the
// host against a step of milliseconds on the GPU, so workers and pinned
// memory have nothing to hide (blind sample S24C's ODIN, which runs a
// forward, a backward and a forward per CIFAR image: six LOAD001/LOAD002
// findings judged false).
func singleSmallImages(p *Pass, gl gpuLoader) bool {
	if !batchOfOne(p, gl) {
		return false
	}
	values, ok := datasetValues(p, gl)
	if !ok {
		return false
	}
	for _, v := range values {
		q := p.Model.CalleeName(v)
		name, ok := strings.CutPrefix(q, "torchvision.datasets.")
		if v.Type != "call" || !ok || !smallImageDatasets[name] {
			return false
		}
	}
	return len(values) > 0
}

// datasetValues returns the expressions the loader's dataset is built by
// in this file: the argument itself, or every value a name passed as it
// is assigned (a call of a project function counts as that call). ok is
// false when there is no dataset argument or a value comes from elsewhere.
func datasetValues(p *Pass, gl gpuLoader) (values []*rewrite.Node, ok bool) {
	ds := rewrite.Arg(gl.Call, 0, "dataset")
	if ds == nil {
		return nil, false
	}
	if ds.Type != "identifier" {
		return []*rewrite.Node{ds}, true
	}
	for _, o := range p.Model.Origins(ds) {
		switch {
		case o.Expr != nil && o.Model == nil:
			values = append(values, o.Expr)
		case o.Def != nil && o.Call != nil && o.Model == nil:
			values = append(values, o.Call)
		default:
			return nil, false
		}
	}
	return values, true
}
