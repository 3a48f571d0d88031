package patterns

import (
	"slices"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Loaders that feed a GPU loop of another module: a DataLoader built by a
// module-level helper here (`def get_loader(...): return DataLoader(...)`)
// whose callers in other modules of the project iterate what it returns in
// a training or model loop, or hand it to a function that does
// (rewrite.Model.ForeignCallSites). The caller's module must target CUDA.

// acrossLoaders adds to out (indexed by at) the DataLoader constructions of
// this file that feed the GPU only through callers in other modules.
func acrossLoaders(p *Pass, out []gpuLoader, at map[*rewrite.Node]int) []gpuLoader {
	if p.Env.Project == nil {
		return out
	}
	for _, call := range p.Model.CallsTo("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader") {
		if k, ok := at[call]; ok && out[k].PerEpoch {
			continue // nothing callers elsewhere could add
		}
		if len(rewrite.PositionalArgs(call)) > 5 || rewrite.HasSplat(call) && !splatsKnown(p, call) {
			continue
		}
		def := call.Ancestor("function_definition")
		if def == nil {
			continue
		}
		idx, ok := returnedIndex(p.Model, def, call)
		if !ok {
			continue
		}
		hot, perEpoch, via := false, false, ""
		for _, fc := range p.Model.ForeignCallSites(def) {
			tb := assignedTarget(fc.Model, fc.Call, idx)
			if tb == nil {
				continue
			}
			fp := foreignPass(p, fc.Model)
			var h, e bool
			if fc.Model.UsesCUDA() {
				h, e, _ = loaderFeeds(fp, tb)
			} else {
				// A caller that names no device, handing the loader to a
				// project class or function whose module targets CUDA.
				h, e = handedToGPUIterator(fp, tb)
			}
			if e && rebuiltInLoop(fc.Model, fc.Call, tb) {
				// The caller builds a new loader each epoch
				// (`for epoch in ...: loader = make_loader(...)`):
				// no worker outlives its pass, kept or not (blind
				// sample S33E's EEGNet).
				e = false
			}
			if h {
				hot = true
				perEpoch = perEpoch || e
				if via == "" {
					via = "assumes the loop in " + baseName(fc.Model.File.Src.Path) + " that iterates `" + tb.Name + "` runs on the GPU"
				}
			}
		}
		if !hot {
			continue
		}
		if k, ok := at[call]; ok {
			out[k].PerEpoch = out[k].PerEpoch || perEpoch
			continue
		}
		workers, maybe, _ := callKeyword(p, call, "num_workers")
		if zeroEverywhere(p, workers) {
			continue // the callers ask for no workers, explicitly
		}
		// The local name the helper binds it to (`loader = DataLoader(...)`
		// then `return loader`), or none: rules read its uses here.
		local := &rewrite.Binding{}
		if asg := call.Parent; asg != nil && asg.Type == "assignment" && asg.ChildByField("right") == call {
			if b := localBinding(p.Model, asg.ChildByField("left")); b != nil {
				local = b
			}
		}
		gl := newGPULoader(p, call, local, perEpoch, workers, maybe)
		gl.Across = via
		at[call] = len(out)
		out = append(out, gl)
	}
	return out
}

// returnedIndex says how def returns the value call builds: the whole
// return value (-1) or the idx-th item of a returned tuple, directly or
// through a name assigned it (`loader = DataLoader(...)`; `return loader`),
// also as a branch of a conditional (`Wrap(loader) if c else loader`).
func returnedIndex(m *rewrite.Model, def, call *rewrite.Node) (int, bool) {
	is := func(e *rewrite.Node) bool {
		if e == call {
			return true
		}
		if e.Type == "identifier" {
			return m.ValueOf(e) == call
		}
		if e.Type == "conditional_expression" {
			for _, c := range e.NamedChildren() {
				if c == call || c.Type == "identifier" && m.ValueOf(c) == call {
					return true
				}
			}
		}
		return false
	}
	for _, r := range rewrite.ReturnValues(def) {
		if is(r) {
			return -1, true
		}
		if r.Is("expression_list", "tuple") {
			for i, it := range r.NamedChildren() {
				if is(it) {
					return i, true
				}
			}
		}
	}
	return 0, false
}

// assignedTarget returns the binding, in m, of the name a call's result
// (idx -1) or its idx-th item is assigned to (`loader = get_loader()`,
// `train_dl, val_dl = get_loaders()`).
func assignedTarget(m *rewrite.Model, call *rewrite.Node, idx int) *rewrite.Binding {
	asg := call.Parent
	if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != call {
		return nil
	}
	target := asg.ChildByField("left")
	if idx >= 0 {
		if !target.Is("pattern_list", "tuple_pattern", "expression_list") || idx >= len(target.NamedChildren()) {
			return nil
		}
		target = target.NamedChildren()[idx]
	}
	if target != nil && target.Type == "attribute" {
		return selfAttrBinding(m, target, asg)
	}
	return localBinding(m, target)
}

// selfAttrBinding stands for `self.train_loader` assigned by asg in a
// method: a binding whose uses are the attribute's reads in every method
// of the class (`for x, y in self.train_loader:` in train(): blind
// sample S29E's ViT solver, whose loaders a helper module builds). Nil
// for any other attribute, or one nothing reads.
func selfAttrBinding(m *rewrite.Model, attr, asg *rewrite.Node) *rewrite.Binding {
	reads := m.SelfAttrReads(attr)
	if len(reads) == 0 {
		return nil
	}
	return &rewrite.Binding{Name: attr.Text(), Kind: rewrite.AssignBinding, Ident: attr, Stmt: asg, Scope: m.ScopeOf(asg), Uses: reads}
}

// localBinding is the binding a plain name target makes, nil otherwise.
func localBinding(m *rewrite.Model, target *rewrite.Node) *rewrite.Binding {
	if target == nil || target.Type != "identifier" {
		return nil
	}
	for _, b := range m.Bindings(target) {
		if b.Ident == target {
			return b
		}
	}
	return nil
}

// foreignPass is a pass over another module of the project, for the
// questions this file's rules ask about how that module uses a value (no
// rule reports through it). One per module and file.
func foreignPass(p *Pass, m *rewrite.Model) *Pass {
	return p.Memo("foreignPass:"+m.File.Src.Path, func() any {
		return &Pass{Rule: p.Rule, File: m.File, Model: m, Env: p.Env, Facts: newFacts(m), out: new([]rewrite.Finding)}
	}).(*Pass)
}

// zeroEverywhere reports a num_workers that is a name whose every value,
// through the call sites of its function here and in other modules and
// its default, is the literal 0.
func zeroEverywhere(p *Pass, workers *rewrite.Node) bool {
	if workers == nil || workers.Type != "identifier" {
		return false
	}
	origins := p.Model.OriginsAcross(workers)
	for _, o := range origins {
		if o.Expr == nil || o.Expr.Type != "integer" || o.Expr.Text() != "0" {
			return false
		}
	}
	return len(origins) > 0
}

// handedToGPUIterator reports that the loader bound by b is passed to a
// project class or function that iterates it and whose module targets
// CUDA, and whether once per pass of an outer loop.
func handedToGPUIterator(p *Pass, b *rewrite.Binding) (hot, perEpoch bool) {
	for _, u := range b.Uses {
		par := u.Parent
		name, pos := "", -1
		var call *rewrite.Node
		switch {
		case par != nil && par.Type == "keyword_argument" && par.ChildByField("value") == u && par.Parent != nil:
			name, call = par.ChildByField("name").Text(), par.Parent.Parent
		case par != nil && par.Type == "argument_list":
			call = par.Parent
			for i, a := range rewrite.PositionalArgs(call) {
				if a == u {
					pos = i
				}
			}
		}
		if call == nil || call.Type != "call" {
			continue
		}
		fn := call.ChildByField("function")
		if fn == nil || fn.Type != "identifier" {
			continue
		}
		d := p.Model.ImportedDef(fn)
		if d == nil || !d.UsesCUDA {
			continue
		}
		if name == "" {
			if pos < 0 || pos >= len(d.Params) {
				continue
			}
			name = d.Params[pos]
		}
		if slices.Contains(d.Iterated, name) {
			hot = true
			perEpoch = perEpoch || slices.Contains(d.EpochIterated, name) || !d.Class && len(p.Model.EnclosingLoops(call)) > 0
		}
	}
	return hot, perEpoch
}
