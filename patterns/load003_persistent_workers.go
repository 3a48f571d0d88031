package patterns

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

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
	if cudaDefaultTensors(p) {
		return // batches may be built on the GPU
	}
	if !p.Env.Versions.Torch.AtLeast(1, 7) {
		return // persistent_workers arrived in torch 1.7
	}
	for _, gl := range gpuLoaders(p) {
		if !workersLikely(gl) || !gl.PerEpoch || gl.has(p, "persistent_workers") {
			continue
		}
		if multiPassTraining(p) {
			continue // each step runs k gradient passes: epochs of minutes
		}
		if datasetTouchedPerEpoch(p, gl) || readEveryFewEpochs(p, gl) || fewLongEpochs(p, gl) || imageNetScale(p, gl) || rebuiltEachPass(p, gl) || batchOfOne(p, gl) || decodesFilesPerItem(p, gl) || stepBudget(p, gl) {
			continue
		}
		// A count written as a name keeps the condition even when its
		// value is known: the script's own comment may invite setting it
		// to 0, where persistent_workers=True raises ValueError (blind
		// sample S18G's YOLOv3 `num_workers = 4`).
		value := "True"
		cond, byFlag := workersCondition(p, gl)
		if byFlag {
			value = cond
		}
		e, ok := rewrite.AppendItem(gl.Call.ChildByField("arguments"), "persistent_workers="+value)
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
		case byFlag:
			// persistent_workers=True with num_workers=0 raises ValueError:
			// keep them only when the count asks for workers.
			msg = "this DataLoader's workers are restarted every epoch: pass persistent_workers=" + value
			fix = Fix(app, "Pass persistent_workers="+value, e)
		case !gl.Known:
			// persistent_workers=True with num_workers=0 raises ValueError.
			msg += " (assumes num_workers=" + gl.Workers.Text() + " is above 0)"
			fix.Applicability = rewrite.Hint
		}
		p.Report(gl.Call, msg+load003Pays, fix)
	}
}

// stepBudget reports a loader read by training that counts steps, not
// epochs: every loop over it sits in a `while` whose condition reads a
// step or iteration counter (`while total_steps < args.num_steps:`), or
// the loader is drawn from with next() and its iterator rebuilt with
// iter() inside the step loop when it runs out (`except StopIteration: it
// = iter(loader)`, `if step % iters_per_epoch == 0: it = iter(loader)`).
// Such step budgets are how flow, segmentation and pose models train on
// datasets whose passes run for minutes, where a restart is under 1%
// (blind samples S30H's DeepLab, S30M's gmflow and PWC-Net).
func stepBudget(p *Pass, gl gpuLoader) bool {
	if gl.Binding == nil {
		return false
	}
	for _, u := range gl.Binding.Uses {
		call := u.Parent
		if call != nil && call.Type == "argument_list" {
			call = call.Parent
		}
		if call != nil && call.Type == "call" && p.Model.CalleeName(call) == "iter" && rebuiltWhenExhausted(p, call) {
			return true // rebuilt inside the step loop when it runs out
		}
	}
	return gl.everyLoop(p, func(loop *rewrite.Node) bool {
		for _, outer := range p.Model.EnclosingLoops(loop) {
			if outer.Type != "while_statement" {
				continue
			}
			cond := outer.ChildByField("condition")
			if cond == nil {
				continue
			}
			for _, id := range p.File.OfTypeIn(cond, "identifier") {
				t := strings.ToLower(id.Text())
				if strings.Contains(t, "step") || strings.Contains(t, "iter") {
					return true
				}
			}
		}
		return false
	})
}

// rebuiltWhenExhausted reports an `iter(loader)` inside a loop, under an
// `except` or an `if` of that loop's body: rebuilt when the iterator runs
// out, not at the top of every epoch (`it = iter(loader)` before an
// epoch's `for step in range(len(loader))` restarts the workers every
// epoch, and keeps the finding).
func rebuiltWhenExhausted(p *Pass, call *rewrite.Node) bool {
	loops := p.Model.EnclosingLoops(call)
	if len(loops) == 0 {
		return false
	}
	for a := call.Parent; a != nil && a != loops[0]; a = a.Parent {
		if a.Is("except_clause", "if_statement") {
			return true
		}
	}
	return false
}

// batchOfOne reports a loader that says batch_size=1 (a literal, a
// constant, a flag's default): an epoch is then one step per sample, each
// a whole forward and backward pass over a full-size input (the edge and
// salient-object detectors that train on whole images), and restarting
// the workers is a small share of it (blind sample S23F judged four such
// findings false: RCF, HED, DexiNed). A loader that leaves batch_size out
// is not one: its dataset may yield whole batches.
func batchOfOne(p *Pass, gl gpuLoader) bool {
	n, ok := intBound(&widthFrame{m: p.Model, walk: &widthWalk{}}, rewrite.Arg(gl.Call, 1, "batch_size"), 0)
	return ok && n == 1
}

// rebuiltEachPass reports a loader built inside the loop that reads it,
// or one of one pass (`for epoch in range(max_epoch)` with max_epoch = 1):
// a new loader each epoch (minimind's, over a resumable batch sampler)
// starts new workers whatever it is told, and one epoch restarts none
// (blind sample S16K).
func rebuiltEachPass(p *Pass, gl gpuLoader) bool {
	if rebuiltInLoop(p.Model, gl.Call, gl.Binding) {
		return true
	}
	return gl.everyLoop(p, func(loop *rewrite.Node) bool {
		n, ok := epochCount(p, loop, 0)
		return ok && n <= 1
	})
}

// multiPassTraining reports a file whose training step runs a loop of
// gradient computations per batch: an adversarial attack's k PGD steps
// (`for _ in range(perturb_steps): ... torch.autograd.grad(...)`), a
// critic trained n times per generator step, a meta-learner's inner
// loop, each pass rerunning the network; in the loop body, or in a function of this file or of a project
// module that the body calls (TRADES's `trades_loss`). Every batch then
// costs k forward and backward passes, epochs run for minutes, and a
// worker restart per epoch is well under 1% (blind samples S33B's
// TRADES and MART, S20E's TRADES-AWP and FAT: seven findings judged
// false).
func multiPassTraining(p *Pass) bool {
	return p.Memo("load003.multiPassTraining", func() any {
		for _, loop := range append(p.File.OfType("for_statement"), p.File.OfType("while_statement")...) {
			body := loop.ChildByField("body")
			if body != nil && computesGradients(p.Model, body, false) && innerGradientLoop(p.Model, body, 1) {
				return true
			}
		}
		return false
	}).(bool)
}

// innerGradientLoop reports a loop inside region (not in a nested
// function) whose body computes gradients (`.backward()`,
// torch.autograd.grad), or, with depth left, a call in region to a
// function of the file or of a project module that holds such a loop.
func innerGradientLoop(m *rewrite.Model, region *rewrite.Node, depth int) bool {
	found := false
	region.Walk(func(n *rewrite.Node) bool {
		if found || rewrite.IsDefOrLambda(n) {
			return false
		}
		switch n.Type {
		case "for_statement", "while_statement":
			if b := n.ChildByField("body"); b != nil && computesGradients(m, b, true) && runsModule(m, b) {
				found = true
			}
		case "call":
			if depth == 0 {
				break
			}
			if def := m.CalledDef(n); def != nil && !def.Contains(region) {
				found = innerGradientLoop(m, def.ChildByField("body"), depth-1)
				break
			}
			if fn := n.ChildByField("function"); fn != nil && fn.Type == "identifier" {
				if d := m.ImportedDef(fn); d != nil && !d.Class {
					if dm, def := m.DefinitionOf(d); dm != nil && def != nil {
						found = innerGradientLoop(dm, def.ChildByField("body"), depth-1)
					}
				}
			}
		}
		return !found
	})
	return found
}

// runsModule reports a call of a module (a forward) in region, outside
// nested functions: a loop that reruns the network, not one that takes
// the gradients of losses already computed (GradNorm's per-task
// autograd.grad over one shared layer).
func runsModule(m *rewrite.Model, region *rewrite.Node) bool {
	found := false
	region.Walk(func(n *rewrite.Node) bool {
		if found || rewrite.IsDefOrLambda(n) {
			return false
		}
		if n.Type == "call" {
			if fn := n.ChildByField("function"); fn != nil && fn.Is("identifier", "attribute") && (m.IsModule(fn) || modelParameter(fn)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// modelParameter reports a call target that is a parameter named for a
// network (`model`, `net`, `classifier_net`) of the function around it:
// a loss helper handed the model (MART's `mart_loss(model, ...)`).
func modelParameter(fn *rewrite.Node) bool {
	if fn.Type != "identifier" || !isParameterName(fn) {
		return false
	}
	t := strings.ToLower(fn.Text())
	return strings.Contains(t, "model") || strings.Contains(t, "net")
}

// isParameterName reports an identifier naming a parameter of the
// function around it.
func isParameterName(id *rewrite.Node) bool {
	fn := id.Ancestor("function_definition")
	if fn == nil {
		return false
	}
	for _, prm := range fn.ChildByField("parameters").NamedChildren() {
		if name := rewrite.ParamName(prm); name != nil && name.Text() == id.Text() {
			return true
		}
	}
	return false
}

// computesGradients reports region calling `.backward()` or
// torch.autograd.grad, outside nested functions and, unless nested is
// set, outside nested loops (the step itself, not an epoch loop around
// it).
func computesGradients(m *rewrite.Model, region *rewrite.Node, nested bool) bool {
	found := false
	region.Walk(func(n *rewrite.Node) bool {
		if found || rewrite.IsDefOrLambda(n) || !nested && n != region && n.Is("for_statement", "while_statement") {
			return false
		}
		if n.Type == "call" {
			if fn := n.ChildByField("function"); fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "backward" || m.CalleeName(n) == "torch.autograd.grad" {
				found = true
			}
		}
		return !found
	})
	return found
}

// rebuiltInLoop reports a loader built (by the call built, a DataLoader
// or a factory returning one) inside a loop and bound to b, every use of
// which is in that loop's own body, not in a loop nested in it: a new
// loader each pass. K folds, each iterating its loader for many epochs,
// keep the finding.
func rebuiltInLoop(m *rewrite.Model, built *rewrite.Node, b *rewrite.Binding) bool {
	around := m.EnclosingLoops(built)
	if len(around) == 0 || b == nil || len(b.Uses) == 0 {
		return false
	}
	iterates := func(loop *rewrite.Node) bool {
		right := loop.ChildByField("right")
		return loop.Type == "for_statement" && right != nil && slices.ContainsFunc(b.Uses, right.Contains)
	}
	for _, u := range b.Uses {
		loops := m.EnclosingLoops(u)
		for len(loops) > 0 && iterates(loops[0]) {
			// `for x in loader:` reads it once, in the loop around, and
			// so does `len(loader)` in that loop's body.
			loops = loops[1:]
		}
		if len(loops) == 0 || loops[0] != around[0] {
			return false
		}
	}
	return true
}

// imageNetScale reports a loader over an ImageNet-scale image folder: a
// torchvision ImageFolder (or a project class built on one) in a script
// whose strings name ImageNet (`default="imagenet"`, "/path/to/imagenet",
// "PyTorch ImageNet Training"), torchvision's ImageNet, COCO or Kinetics
// datasets, or a class named for one of them (namesLargeDataset). An epoch of 10⁵-10⁶ images runs for minutes, and a
// restart of the workers, a second or two, is under 1% of it (blind
// samples S14B's VICReg, S14G's CutMix and S16B's CMC judged it false).
func imageNetScale(p *Pass, gl gpuLoader) bool {
	values, ok := datasetValues(p, gl)
	if !ok {
		return false
	}
	for _, v := range values {
		if v.Type != "call" {
			return false
		}
		q := p.Model.CalleeName(v)
		switch {
		case q == "torchvision.datasets.ImageNet" || strings.HasPrefix(q, "torchvision.datasets.Coco") || strings.HasPrefix(q, "torchvision.datasets.Kinetics"):
		case imageFolderClass(p, v, q):
			if !namesImageNet(p) {
				return false
			}
		case namesLargeDataset(v):
		default:
			return false
		}
	}
	return len(values) > 0
}

// namesLargeDataset reports a dataset class named for ImageNet, COCO or
// Kinetics (ReSSL's memcached `Imagenet()`, a project's `COCODataset`):
// the name says how long its epochs are. Mini and tiny subsets (few-shot
// miniImageNet episodes, Tiny ImageNet) are short and stay reported.
func namesLargeDataset(call *rewrite.Node) bool {
	fn := call.ChildByField("function")
	if fn.Is("attribute") {
		fn = fn.ChildByField("attribute")
	}
	if !fn.Is("identifier") {
		return false
	}
	name := strings.ToLower(fn.Text())
	if strings.Contains(name, "mini") || strings.Contains(name, "tiny") {
		return false
	}
	return strings.Contains(name, "imagenet") || strings.Contains(name, "ilsvrc") || strings.HasPrefix(name, "coco") || strings.Contains(name, "kinetics")
}

// imageFolderClass reports a call building a torchvision ImageFolder or
// DatasetFolder, or a project class derived from one (CMC's
// ImageFolderInstance).
func imageFolderClass(p *Pass, call *rewrite.Node, q string) bool {
	folder := func(name string) bool {
		return strings.HasSuffix(name, "ImageFolder") || strings.HasSuffix(name, "DatasetFolder")
	}
	if strings.HasPrefix(q, "torchvision.datasets.") && folder(q) {
		return true
	}
	d := p.Model.ImportedDef(call.ChildByField("function"))
	return d != nil && d.Class && slices.ContainsFunc(d.Bases, folder)
}

// namesImageNet reports a file with a string literal naming ImageNet (or
// ILSVRC), not a torchvision weights name ("IMAGENET1K_V1").
func namesImageNet(p *Pass) bool {
	if !containsFoldASCII(p.File.Src.Bytes, "imagenet") && !containsFoldASCII(p.File.Src.Bytes, "ilsvrc") {
		return false
	}
	for _, s := range p.File.OfType("string") {
		t := strings.ToLower(s.Text())
		if (strings.Contains(t, "imagenet") || strings.Contains(t, "ilsvrc")) && !strings.Contains(t, "imagenet1k_") && !strings.Contains(t, "imagenet22k_") {
			return true
		}
	}
	return false
}

// load003Pays is the condition every LOAD003 message states, with the
// gain measured on an H100 host (corpus/gpu/load003_persistent.py): a
// forked worker's restart costs about 18 ms an epoch, which short epochs
// notice and long ones do not. (The first batches of an epoch are loaded
// afresh either way: a new iterator refills the prefetch of persistent
// workers too.)
const load003Pays = "; it pays when epochs are short: each restart forks the workers again, about 18 ms a worker on an H100 host (more under spawn, which re-imports the script), 3.5-5.1× on epochs of 8 batches, 1.07-1.12× on epochs of 1.2 s, under 1% on epochs of minutes"

// workersCondition returns `<num_workers> > 0` for a worker count that is
// written in the DataLoader call itself as a name, an attribute or a
// subscript (`args.workers`, `cfg["workers"]`), or the builtin int() of one
// (`int(opt.workers)`): an expression that reads the same value when
// evaluated twice. false for anything else (a call may not).
func workersCondition(p *Pass, gl gpuLoader) (string, bool) {
	w := gl.Workers
	if w == nil || !gl.Call.Contains(w) || !readOnlyExpr(p, w) {
		return "", false
	}
	return w.Text() + " > 0", true
}

// readOnlyExpr reports a name, attributes and constant subscripts of one,
// and int() of such an expression.
func readOnlyExpr(p *Pass, n *rewrite.Node) bool {
	switch n.Type {
	case "identifier":
		return true
	case "attribute":
		return readOnlyExpr(p, n.ChildByField("object"))
	case "subscript":
		idx := n.ChildByField("subscript")
		return idx != nil && idx.Is("string", "integer") && readOnlyExpr(p, n.ChildByField("value"))
	case "call":
		args := rewrite.PositionalArgs(n)
		return p.Model.CalleeName(n) == "int" && len(args) == 1 && readOnlyExpr(p, args[0])
	}
	return false
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
			if !datasetOnlyRead(p, u) {
				return true
			}
		}
	case ds.Type == "subscript":
		// `image_datasets[x]` of a dict of datasets built by calls
		// (`{x: datasets.ImageFolder(...) for x in ["train", "val"]}`).
		name := ds.ChildByField("value")
		if name == nil || name.Type != "identifier" {
			return true
		}
		bs := p.Model.Bindings(name)
		if len(bs) != 1 || bs[0].Value == nil || !bs[0].Value.Is("dictionary", "dictionary_comprehension") {
			return true
		}
		for _, u := range bs[0].Uses {
			if u.Parent == nil || u.Parent.Type != "subscript" || u.Parent.ChildByField("value") != u || !datasetOnlyRead(p, u.Parent) {
				return true
			}
		}
	case ds.Type != "call":
		return true
	}
	return loaderDatasetReached(p, gl) || loaderDatasetChanged(p) || datasetHoldsClosure(p, rewrite.Arg(gl.Call, 0, "dataset"))
}

// loaderDatasetReached reports a read of the loader's .dataset other than
// len(loader.dataset): what the code does with it may change it.
func loaderDatasetReached(p *Pass, gl gpuLoader) bool {
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

// datasetChanged reports evidence that the loader's dataset changes
// between passes: an attribute of it assigned or a method of it called
// here (`dataset.mode = "test"`, `dataset.set_epoch(e)`), the loader's
// .dataset reached (loaderDatasetReached), or a loader's dataset changed
// through the loader in a module of the project (loaderDatasetChanged).
// Unlike datasetTouchedPerEpoch it takes a dataset of unknown origin (a
// parameter), or one handed to a function, as unchanged.
func datasetChanged(p *Pass, gl gpuLoader) bool {
	if ds := rewrite.Arg(gl.Call, 0, "dataset"); ds != nil && ds.Type == "identifier" {
		for _, b := range p.Model.Bindings(ds) {
			for _, u := range b.Uses {
				attr := u.Parent
				if attr == nil || attr.Type != "attribute" || attr.ChildByField("object") != u || attr.Parent == nil {
					continue
				}
				switch up := attr.Parent; up.Type {
				case "call":
					if up.ChildByField("function") == attr {
						return true
					}
				case "assignment", "augmented_assignment":
					if up.ChildByField("left") == attr {
						return true
					}
				}
			}
		}
	}
	return loaderDatasetReached(p, gl) || loaderDatasetChanged(p) || datasetHoldsClosure(p, rewrite.Arg(gl.Call, 0, "dataset"))
}

// loaderDatasetChange is an assignment to an attribute of a loader's
// dataset, or a method call on it (`self.data_loader.dataset.mode =
// "test"`, `loader.dataset.set_epoch(e)`).
var loaderDatasetChange = regexp.MustCompile(`\.dataset\.[A-Za-z_]\w*\s*(?:=[^=]|\()`)

// loaderDatasetChanged reports a file, or a module of the project, that
// changes some loader's dataset through the loader (loaderDatasetChange):
// a loader built here may be the one another module's trainer changes
// between passes (blind sample S19B's DAGMM, whose Solver switches
// `self.data_loader.dataset.mode`). Persistent workers would keep the
// dataset they started with.
func loaderDatasetChanged(p *Pass) bool {
	return p.Memo("load.loaderDatasetChanged", func() any {
		for _, src := range p.Model.ProjectSourcesSpelling("dataset") {
			if loaderDatasetChange.Match(src) {
				return true
			}
		}
		return false
	}).(bool)
}

// datasetOnlyRead reports a use of a dataset that does not change it:
// `assert dataset`, an argument of len, print, a DataLoader or a sampler,
// or an attribute read (`dataset.classes`, not a method call nor an
// assignment to it).
func datasetOnlyRead(p *Pass, u *rewrite.Node) bool {
	par := u.Parent
	switch {
	case par == nil:
		return false
	case par.Type == "assert_statement":
		return true
	case par.Type == "attribute" && par.ChildByField("object") == u:
		up := par.Parent
		if up != nil && up.Type == "call" && up.ChildByField("function") == par {
			return false // dataset.set_epoch(e), dataset.shuffle()
		}
		if up != nil && up.Is("assignment", "augmented_assignment") && up.ChildByField("left") == par {
			return false
		}
		return true
	}
	call := par
	if call.Type == "keyword_argument" {
		call = call.Parent
	}
	if call == nil || call.Type != "argument_list" {
		return false
	}
	q := p.Model.CalleeName(call.Parent)
	return q == "len" || q == "print" || q == "torch.utils.data.DataLoader" || q == "torch.utils.data.dataloader.DataLoader" || datasetReaders[q]
}

// datasetReaders take a dataset without changing it: samplers index it.
var datasetReaders = map[string]bool{
	"torch.utils.data.distributed.DistributedSampler": true, "torch.utils.data.DistributedSampler": true,
	"torch.utils.data.RandomSampler": true, "torch.utils.data.SequentialSampler": true,
	"torch.utils.data.sampler.RandomSampler": true, "torch.utils.data.sampler.SequentialSampler": true,
}

// readEveryFewEpochs reports a loader whose every loop runs under a
// periodic guard (`if epoch % test_interval == test_interval - 1:`),
// around the loop or around every call of the function that holds it
// (`if epoch % 25 == 0: test(net, test_loader)`): its workers start
// every few epochs, not every epoch, and persistent ones would sit idle
// in between (blind samples ZZ's test loader read every 20 epochs, S18D's
// DCL test() every 25). LOAD001 and LOAD002 leave such a loader alone
// too: an evaluation every few epochs is a small share of the run.
func readEveryFewEpochs(p *Pass, gl gpuLoader) bool {
	return gl.everyLoop(p, func(loop *rewrite.Node) bool { return underRemainderGuard(p, loop, 0, true) }) || handedOnlyUnderGuard(p, gl)
}

// handedOnlyUnderGuard reports a loader every read of which hands it to a
// call under a periodic guard (`if total_iters % args.test_freq == 0:
// getFeatureFromTorch(..., lfwloader)`, a function of another module that
// iterates it: blind sample S30Q's face-recognition evaluation loaders,
// read every 3,000 steps).
func handedOnlyUnderGuard(p *Pass, gl gpuLoader) bool {
	if gl.Binding == nil || len(gl.Binding.Uses) == 0 {
		return false
	}
	for _, u := range gl.Binding.Uses {
		par := u.Parent
		if par != nil && par.Type == "keyword_argument" {
			par = par.Parent
		}
		if par == nil || par.Type != "argument_list" || !underRemainderGuard(p, par.Parent, 0, true) {
			return false
		}
	}
	return true
}

// underRemainderGuard reports n running only under an if whose condition
// takes a remainder, in its own function before any loop, or, in a
// function of this file, at every call of that function (two callers
// deep). With skipOnce, a call that runs once, outside any loop, does
// not count (FastFlow's final `eval_once(test_dataloader, model)` beside
// the periodic one, blind sample S21E): it starts workers once, though it
// is a whole evaluation pass that autocast would still speed up.
func underRemainderGuard(p *Pass, n *rewrite.Node, depth int, skipOnce bool) bool {
	return remainderGuarded(p, n, depth, skipOnce, false)
}

// underEpochGuard is underRemainderGuard for guards outside the batch
// loops only (`if (epoch + 1) % val_freq == 0:`): an evaluation every
// few hundred steps still runs often enough for its syncs to count
// (corpus SYNC002/evaluate_once.py).
func underEpochGuard(p *Pass, n *rewrite.Node) bool {
	return remainderGuarded(p, n, 0, false, true)
}

func remainderGuarded(p *Pass, n *rewrite.Node, depth int, skipOnce, epochsOnly bool) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		switch {
		case rewrite.IsLoop(a), a.Type == "class_definition", a.Type == "lambda":
			return false
		case a.Type == "if_statement":
			if c := a.ChildByField("condition"); c != nil && strings.Contains(c.Text(), "%") && !c.Contains(n) {
				if body := a.ChildByField("consequence"); body != nil && body.Contains(n) {
					// Every few batches of a loop over a loader (SimCSE's
					// `if batch_idx % 10 == 0: evaluation(model, dev_dl)`)
					// is often, not every few epochs; every 5,000 steps
					// (MP-SENet's validation_interval) is not.
					loops := p.Model.EnclosingLoops(a)
					if epochsOnly && len(loops) > 0 && backwardLoop(p.Model, loops[0]) {
						return false // every few training steps
					}
					if len(loops) == 0 || loops[0].Type != "for_statement" || !p.Model.IsDataLoader(loops[0].ChildByField("right")) {
						return true
					}
					return !epochsOnly && !fewStepsApart(p, c)
				}
			}
		case a.Type == "function_definition":
			calls := p.Model.CallSites(a)
			if len(calls) == 0 {
				calls = templateCalls(p, a)
			}
			if depth >= 2 || len(calls) == 0 {
				return false
			}
			guarded := false
			for _, c := range calls {
				if skipOnce && !a.Contains(c) && len(p.Model.EnclosingLoops(c)) == 0 && !calledInLoop(p, c) {
					continue // a call that runs once (a final evaluation) restarts nothing per epoch
				}
				if a.Contains(c) || !remainderGuarded(p, c, depth+1, skipOnce, epochsOnly) {
					return false
				}
				guarded = true
			}
			return guarded
		}
	}
	return false
}

// fewStepsApart reports a condition that takes a remainder by a known
// number below 100 (`batch_idx % 10 == 0`, a constant or a flag's
// default).
func fewStepsApart(p *Pass, cond *rewrite.Node) bool {
	few := false
	cond.Walk(func(n *rewrite.Node) bool {
		if n.Type == "binary_operator" && n.ChildByField("operator").Text() == "%" {
			k, ok := intBound(&widthFrame{m: p.Model, walk: &widthWalk{}}, n.ChildByField("right"), 0)
			few = few || ok && k > 0 && k < 100
		}
		return !few
	})
	return few
}

// fewEpochs is the epoch count at or under which LOAD003 takes the
// epochs of a large network to be long: a recipe of a handful of passes
// of a large network is one over a large dataset (a BERT fine-tune's 10
// epochs, COCO captioning with a ResNet-152 encoder for 10).
const fewEpochs = 20

// fewLongEpochs reports a loader whose loops run a network shown large
// (largeNetwork) in an epoch loop of fewEpochs passes or fewer, by a
// literal, a constant or a command-line flag's default (`for epoch in
// range(1, args.epochs + 1)` with `default=10`), around the loop here or
// around the calls of the function that holds it. Blind samples judged
// LOAD003 false on such scripts: restarting a worker or two once per
// epoch of thousands of heavy steps is well under 1%. A small network's
// few epochs (an MNIST VAE's 10) are short, and keep the finding.
func fewLongEpochs(p *Pass, gl gpuLoader) bool {
	return gl.everyLoop(p, func(loop *rewrite.Node) bool {
		n, ok := epochCount(p, loop, 0)
		return ok && n <= fewEpochs && largeNetwork(p, []*rewrite.Node{loop})
	})
}

// epochCount is the trip count of the range loop around loop (the
// outermost one), or around the calls of the function holding it.
func epochCount(p *Pass, loop *rewrite.Node, depth int) (int, bool) {
	if outer := p.Model.EnclosingLoops(loop); len(outer) > 0 {
		return rangeCount(p, outer[len(outer)-1])
	}
	fn := loop.Ancestor("function_definition")
	if fn == nil || depth > 1 {
		return 0, false
	}
	sites := p.Model.CallSites(fn)
	if len(sites) == 0 {
		return 0, false
	}
	most := 0
	for _, site := range sites {
		n, ok := epochCount(p, site, depth+1)
		if !ok {
			return 0, false
		}
		most = max(most, n)
	}
	return most, true
}

// rangeCount reads `for _ in range(n)`, `range(a, n)` and `range(1, n +
// 1)` loops whose bounds are literals, constants or flag defaults.
func rangeCount(p *Pass, loop *rewrite.Node) (int, bool) {
	it := loop.ChildByField("right")
	if loop.Type != "for_statement" || it == nil || it.Type != "call" || p.Model.CalleeName(it) != "range" {
		return 0, false
	}
	args := rewrite.PositionalArgs(it)
	if len(args) == 0 || len(args) > 2 {
		return 0, false
	}
	start := 0
	if len(args) == 2 {
		v, ok := boundValue(p, args[0])
		if !ok {
			return 0, false
		}
		start = v
	}
	end, ok := boundValue(p, args[len(args)-1])
	return end - start, ok
}

// boundValue is an integer bound: a literal or constant, a flag's default
// (`args.epochs`), a parameter given one of those at every call site,
// any of them plus or minus a literal.
func boundValue(p *Pass, n *rewrite.Node) (int, bool) {
	if n.Type == "binary_operator" {
		l, r, op := n.ChildByField("left"), n.ChildByField("right"), n.ChildByField("operator")
		if l == nil || r == nil || op == nil {
			return 0, false
		}
		a, ok1 := boundValue(p, l)
		b, ok2 := intLiteral(p, r)
		switch {
		case !ok1 || !ok2:
			return 0, false
		case op.Text() == "+":
			return a + b, true
		case op.Text() == "-":
			return a - b, true
		}
		return 0, false
	}
	if v, ok := constantBound(p, n); ok {
		return v, true
	}
	if n.Type == "identifier" {
		// A parameter: the largest of what its call sites pass
		// (`train(num_epochs=3, ...)`, blind sample S20D's Fabric
		// fine-tunes), each a literal, a constant or a flag's default.
		most, any := 0, false
		for _, o := range p.Model.Origins(n) {
			if o.Expr == nil || o.Model != nil || o.Expr == n {
				return 0, false
			}
			v, ok := constantBound(p, o.Expr)
			if !ok {
				return 0, false
			}
			most, any = max(most, v), true
		}
		return most, any
	}
	return 0, false
}

// constantBound is an integer written as a literal or constant, or a
// command-line flag's default (`args.epochs` with `default=10`).
func constantBound(p *Pass, n *rewrite.Node) (int, bool) {
	if v, ok := intLiteral(p, n); ok {
		return v, true
	}
	if def, _, flag := flagDefaultValue(p.Model, n); flag && def != nil {
		return intLiteralText(def.Text())
	}
	return 0, false
}

// templateCalls returns, for a method with no call site of its own (an
// override), the `self.name(...)` calls of the file outside it: a base
// class's training loop calling `self.validate()` every few epochs, which
// runs each subclass's validate (blind sample S35S's virtual-staining
// trainers).
func templateCalls(p *Pass, def *rewrite.Node) []*rewrite.Node {
	if enclosingClass(def) == nil {
		return nil
	}
	var out []*rewrite.Node
	for _, c := range p.File.MethodCalls(def.ChildByField("name").Text()) {
		if fn := c.ChildByField("function"); fn != nil && fn.ChildByField("object").Text() == "self" && !def.Contains(c) {
			out = append(out, c)
		}
	}
	return out
}

// datasetHoldsClosure reports a dataset built with a function value among
// its arguments, or among those of the calls that build its arguments, a
// few levels deep, through parameters to their call sites in the project
// (closureInDataset): a lambda the trainer passes in (`DataAugmentor(args,
// lambda: current_epoch)` handed to the dataset, blind sample S35H's
// FastMRI entry) reads state the main process changes between epochs,
// which persistent workers never see again (their copy stays at epoch 0).
func datasetHoldsClosure(p *Pass, ds *rewrite.Node) bool {
	_, fn := closureInDataset(p, ds)
	return fn != nil
}

// closureInDataset returns the lambda or nested function a dataset is
// built with (datasetHoldsClosure), with the model of its module; nil
// when there is none.
func closureInDataset(p *Pass, ds *rewrite.Node) (*rewrite.Model, *rewrite.Node) {
	var holds func(m *rewrite.Model, e *rewrite.Node, depth int) (*rewrite.Model, *rewrite.Node)
	holds = func(m *rewrite.Model, e *rewrite.Node, depth int) (*rewrite.Model, *rewrite.Node) {
		if e == nil || depth > 6 {
			return nil, nil
		}
		switch e.Type {
		case "lambda":
			return m, e
		case "keyword_argument":
			return holds(m, e.ChildByField("value"), depth)
		case "call":
			if args := e.ChildByField("arguments"); args != nil {
				for _, a := range args.NamedChildren() {
					if hm, fn := holds(m, a, depth+1); fn != nil {
						return hm, fn
					}
				}
			}
		case "identifier":
			if b := m.Binding(e); b != nil && b.Kind == rewrite.DefBinding && b.Stmt.Ancestor("function_definition") != nil {
				return m, b.Stmt // a nested function: a closure
			}
			for _, o := range m.OriginsAcross(e) {
				om := m
				if o.Model != nil {
					om = o.Model
				}
				if o.Expr != nil && o.Expr != e {
					if hm, fn := holds(om, o.Expr, depth+1); fn != nil {
						return hm, fn
					}
				}
				if o.Expr == nil && o.Call != nil {
					if hm, fn := holds(om, o.Call, depth+1); fn != nil {
						return hm, fn // an instance of a project class, built with a lambda
					}
				}
			}
		}
		return nil, nil
	}
	return holds(p.Model, ds, 0)
}
