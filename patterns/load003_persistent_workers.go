package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// LoaderPersistentWorkers is LOAD003.
var LoaderPersistentWorkers = &Rule{
	Code:      "LOAD003",
	Name:      "dataloader-persistent-workers",
	Title:     "Keep DataLoader workers alive across epochs (persistent_workers=True)",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Check:     checkLoaderPersistent,
}

func init() { Register(LoaderPersistentWorkers) }

func checkLoaderPersistent(p *Pass) {
	for _, gl := range gpuLoaders(p) {
		if !workersLikely(gl) || !gl.PerEpoch || gl.has(p, "persistent_workers") {
			continue
		}
		if datasetTouchedPerEpoch(p, gl) {
			continue
		}
		e, ok := rewrite.AppendItem(gl.Call.ChildByField("arguments"), "persistent_workers=True")
		msg, app := "this DataLoader's workers are restarted every epoch: pass persistent_workers=True", rewrite.Unsafe
		fix := Fix(app, "Pass persistent_workers=True", e)
		switch {
		case !ok && gl.WorkersMaybe:
			msg += " (add it to the **kwargs dict that sets num_workers)"
			fix = nil
		case !ok:
			// A ** splat may pass it already: say so, write nothing.
			msg += " (unless the **kwargs passed here set it)"
			fix = nil
		case gl.WorkersMaybe:
			// Only some paths start workers: persistent_workers=True on the
			// others (num_workers=0) raises ValueError. It goes in the dict.
			msg += " (add it to the **kwargs dict that sets num_workers)"
			fix = nil
		case !gl.Known:
			// persistent_workers=True with num_workers=0 raises ValueError.
			msg += " (assumes num_workers=" + gl.Workers.Text() + " is above 0)"
			fix.Applicability = rewrite.Hint
		}
		p.Report(gl.Call, msg, fix)
	}
}

// datasetTouchedPerEpoch reports that the main process may change the
// loader's dataset after the workers start: the dataset is not a plain name
// or a constructor call, its name is used anywhere but as a DataLoader or
// len() argument, or the loader's .dataset is read.
func datasetTouchedPerEpoch(p *Pass, gl gpuLoader) bool {
	ds := rewrite.Arg(gl.Call, 0, "dataset")
	switch {
	case ds == nil:
		return true
	case ds.Type == "identifier":
		bs := p.Model.Bindings(ds)
		if len(bs) == 0 {
			return true
		}
		for _, b := range bs {
			// One dataset per branch (`if opt.dataset == "cifar10": ...`).
			if b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" {
				return true
			}
		}
		for _, u := range bs[0].Uses {
			call := u.Parent
			if call != nil && call.Type == "keyword_argument" {
				call = call.Parent
			}
			if call == nil || call.Type != "argument_list" {
				return true
			}
			q := p.Model.CalleeName(call.Parent)
			if q != "len" && q != "print" && q != "torch.utils.data.DataLoader" && q != "torch.utils.data.dataloader.DataLoader" && !datasetReaders[q] {
				return true
			}
		}
	case ds.Type != "call":
		return true
	}
	for _, u := range gl.Binding.Uses {
		if u.Parent != nil && u.Parent.Type == "attribute" && u.Parent.ChildByField("attribute").Text() == "dataset" {
			// len(loader.dataset) only counts it.
			if al := u.Parent.Parent; al != nil && al.Type == "argument_list" && p.Model.CalleeName(al.Parent) == "len" {
				continue
			}
			return true
		}
	}
	return false
}

// datasetReaders take a dataset without changing it: samplers index it.
var datasetReaders = map[string]bool{
	"torch.utils.data.distributed.DistributedSampler": true, "torch.utils.data.DistributedSampler": true,
	"torch.utils.data.RandomSampler": true, "torch.utils.data.SequentialSampler": true,
	"torch.utils.data.sampler.RandomSampler": true, "torch.utils.data.sampler.SequentialSampler": true,
}
