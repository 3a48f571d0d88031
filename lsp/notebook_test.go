package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const (
	nbURI    = "file:///tmp/project/train.ipynb"
	cellMD   = "vscode-notebook-cell:/tmp/project/train.ipynb#W0sZmlsZQ%3D%3D"
	cellImp  = "vscode-notebook-cell:/tmp/project/train.ipynb#W1sZmlsZQ%3D%3D"
	cellMod  = "vscode-notebook-cell:/tmp/project/train.ipynb#W2sZmlsZQ%3D%3D"
	cellLoop = "vscode-notebook-cell:/tmp/project/train.ipynb#W3sZmlsZQ%3D%3D"
	cellXGB  = "vscode-notebook-cell:/tmp/project/train.ipynb#W4sZmlsZQ%3D%3D"
)

var nbCells = map[string]string{
	cellMD:   "# Training\nThe model and its loop live in different cells.",
	cellImp:  "%matplotlib inline\nimport torch\nfrom torch import nn",
	cellMod:  "model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()\noptimizer = torch.optim.AdamW(model.parameters())",
	cellLoop: "for step in range(10):\n    loss = model(torch.randn(64, 1024, device=\"cuda\")).sum()\n    loss.backward()\n    optimizer.step()",
}

func openNotebook(c *testClient) {
	c.t.Helper()
	var cells, docs []any
	for i, uri := range []string{cellMD, cellImp, cellMod, cellLoop} {
		kind, lang := 2, "python"
		if i == 0 {
			kind, lang = 1, "markdown"
		}
		cells = append(cells, map[string]any{"kind": kind, "document": uri})
		docs = append(docs, map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": nbCells[uri]})
	}
	c.notify("notebookDocument/didOpen", map[string]any{
		"notebookDocument":  map[string]any{"uri": nbURI, "notebookType": "jupyter-notebook", "version": 1, "cells": cells},
		"cellTextDocuments": docs,
	})
}

// waitCell returns the diagnostics published for a cell at notebook
// version v or later.
func waitCell(c *testClient, uri string, v uint32) []protocol.Diagnostic {
	c.t.Helper()
	return c.waitDiags(uri, v).Diagnostics
}

func TestNotebookSyncDiagnosticsQuickFixAndHover(t *testing.T) {
	c := newTestClient(t, Options{Hardware: h100(nil, nil)})
	res := c.initialize(nil, "", nil)
	nbSync, _ := res["capabilities"].(map[string]any)["notebookDocumentSync"].(map[string]any)
	sel, _ := nbSync["notebookSelector"].([]any)
	if len(sel) != 1 || sel[0].(map[string]any)["notebook"] != "jupyter-notebook" ||
		sel[0].(map[string]any)["cells"].([]any)[0].(map[string]any)["language"] != "python" {
		t.Fatalf("notebookDocumentSync = %v", nbSync)
	}
	openNotebook(c)

	// OPT001 in the model cell, in that cell's coordinates.
	diags := waitCell(c, cellMod, 1)
	opt := findDiag(diags, "OPT001")
	if opt == nil {
		t.Fatalf("no OPT001 on the model cell: %+v", diags)
	}
	if opt.Range.Start.Line != 1 || opt.Range.Start.Character != uint32(len("optimizer = ")) {
		t.Errorf("OPT001 range %+v", opt.Range)
	}
	// AMP005: the loop is in its own cell, the model in another.
	amp := findDiag(waitCell(c, cellLoop, 1), "AMP005")
	if amp == nil || amp.Range.Start.Line != 0 {
		t.Fatalf("no AMP005 on the loop cell")
	}

	// The quick fix of AMP005 edits the first code cell, after its imports.
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: cellLoop},
		Range:        amp.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*amp}},
	}, &actions)
	fix := findAction(actions, func(a protocol.CodeAction) bool {
		return strings.Contains(a.Title, "AMP005") && a.Edit != nil && !strings.HasPrefix(a.Title, "Disable")
	})
	if fix == nil {
		t.Fatalf("no AMP005 quick fix in %+v", actions)
	}
	if len(fix.Edit.Changes) != 1 || len(fix.Edit.Changes[cellImp]) != 1 {
		t.Fatalf("AMP005 fix edits %+v, want one edit of the imports cell", fix.Edit.Changes)
	}
	got := applyTextEdits(t, nbCells[cellImp], fix.Edit.Changes[cellImp])
	if got != "%matplotlib inline\nimport torch\nfrom torch import nn\ntorch.set_float32_matmul_precision(\"high\")" {
		t.Errorf("imports cell after the fix:\n%s", got)
	}
	disable := findAction(actions, func(a protocol.CodeAction) bool { return a.Title == "Disable AMP005 for this line" })
	if disable == nil || len(disable.Edit.Changes[cellLoop]) != 1 {
		t.Errorf("disable action: %+v", disable)
	}

	// The client applies it to the cell: the finding goes away.
	var changes []any
	for _, e := range fix.Edit.Changes[cellImp] {
		changes = append(changes, map[string]any{"range": e.Range, "text": e.NewText})
	}
	c.notify("notebookDocument/didChange", map[string]any{
		"notebookDocument": map[string]any{"uri": nbURI, "version": 2},
		"change": map[string]any{"cells": map[string]any{"textContent": []any{map[string]any{
			"document": map[string]any{"uri": cellImp, "version": 2},
			"changes":  changes,
		}}}},
	})
	if d := findDiag(waitCell(c, cellLoop, 2), "AMP005"); d != nil {
		t.Errorf("AMP005 still reported after its fix")
	}

	// Hover on the OPT001 finding in its cell.
	var hover protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: cellMod}, Position: opt.Range.Start,
	}}, &hover)
	if !strings.Contains(hover.Contents.Value, "**OPT001**") || hover.Range == nil || hover.Range.Start.Line != 1 {
		t.Errorf("hover: %+v", hover)
	}

	// A new cell: XGBoost with a deprecated parameter, added after the loop.
	c.notify("notebookDocument/didChange", map[string]any{
		"notebookDocument": map[string]any{"uri": nbURI, "version": 3},
		"change": map[string]any{"cells": map[string]any{"structure": map[string]any{
			"array":   map[string]any{"start": 4, "deleteCount": 0, "cells": []any{map[string]any{"kind": 2, "document": cellXGB}}},
			"didOpen": []any{map[string]any{"uri": cellXGB, "languageId": "python", "version": 1, "text": "import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}"}},
		}}},
	})
	if d := findDiag(waitCell(c, cellXGB, 3), "XGB002"); d == nil || d.Range.Start.Line != 1 {
		t.Errorf("no XGB002 on the new cell: %+v", d)
	}
	// Fix-all on save (asked by kind) edits only the cells that change.
	actions = nil
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: cellXGB},
		Context:      protocol.CodeActionContext{Only: []protocol.CodeActionKind{SourceFixAll}},
	}, &actions)
	if len(actions) != 1 || actions[0].Edit == nil || len(actions[0].Edit.Changes) != 2 ||
		applyTextEdits(t, "import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}", actions[0].Edit.Changes[cellXGB]) != "import xgboost as xgb\nparams = {\"tree_method\": \"hist\", \"device\": \"cuda\"}" ||
		applyTextEdits(t, nbCells[cellMod], actions[0].Edit.Changes[cellMod]) != "model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()\noptimizer = torch.optim.AdamW(model.parameters(), fused=True)" {
		t.Errorf("fix-all: %+v", actions)
	}

	// Removing the cell clears its diagnostics; closing clears the rest.
	c.notify("notebookDocument/didChange", map[string]any{
		"notebookDocument": map[string]any{"uri": nbURI, "version": 4},
		"change": map[string]any{"cells": map[string]any{"structure": map[string]any{
			"array":    map[string]any{"start": 4, "deleteCount": 1},
			"didClose": []any{map[string]any{"uri": cellXGB}},
		}}},
	})
	if d := waitCell(c, cellXGB, 4); len(d) != 0 {
		t.Errorf("a removed cell keeps diagnostics: %+v", d)
	}
	c.notify("notebookDocument/didClose", map[string]any{"notebookDocument": map[string]any{"uri": nbURI}, "cellTextDocuments": []any{}})
	if d := waitCell(c, cellMod, 0); len(d) != 0 {
		t.Errorf("diagnostics left after close: %+v", d)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestNotebookNewCellFixBecomesFirstLine: CUDF001's fix adds a cell from
// the command line; an editor cannot add one through a workspace edit, so
// its quick fix puts the line on top of the first code cell.
func TestNotebookNewCellFixBecomesFirstLine(t *testing.T) {
	c := newTestClient(t, Options{Hardware: h100(nil, nil)})
	c.initialize(nil, "", nil)
	cells := []string{
		"import pandas as pd\nimport xgboost as xgb",
		"df = pd.read_parquet(\"features.parquet\")\ndtrain = xgb.QuantileDMatrix(df.drop(columns=[\"y\"]), label=df[\"y\"])\nxgb.train({\"tree_method\": \"hist\", \"device\": \"cuda\"}, dtrain)",
	}
	var meta, docs []any
	for i, text := range cells {
		uri := cellMD[:len(cellMD)-1] + string(rune('a'+i))
		meta = append(meta, map[string]any{"kind": 2, "document": uri})
		docs = append(docs, map[string]any{"uri": uri, "languageId": "python", "version": 1, "text": text})
	}
	first, second := docs[0].(map[string]any)["uri"].(string), docs[1].(map[string]any)["uri"].(string)
	c.notify("notebookDocument/didOpen", map[string]any{
		"notebookDocument":  map[string]any{"uri": nbURI, "notebookType": "jupyter-notebook", "version": 1, "cells": meta},
		"cellTextDocuments": docs,
	})
	d := findDiag(waitCell(c, second, 1), "CUDF001")
	if d == nil {
		t.Fatal("no CUDF001")
	}
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(second)},
		Range:        d.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*d}},
	}, &actions)
	fix := findAction(actions, func(a protocol.CodeAction) bool { return strings.HasPrefix(a.Title, "Fix CUDF001") })
	if fix == nil || len(fix.Edit.Changes) != 1 {
		t.Fatalf("CUDF001 quick fix: %+v", actions)
	}
	if got := applyTextEdits(t, cells[0], fix.Edit.Changes[protocol.DocumentURI(first)]); got != "%load_ext cudf.pandas\n"+cells[0] {
		t.Errorf("first cell after the fix:\n%s", got)
	}
}
