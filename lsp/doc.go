// Package lsp is gpuopt's language server: it speaks the Language Server
// Protocol (go.lsp.dev/protocol over go.lsp.dev/jsonrpc2) on a byte stream,
// usually stdio (`gpuopt lsp`), and translates between the engine's values
// (byte offsets, rewrite.Finding, rewrite.Fix, rewrite.Edit) and the
// protocol's (UTF-16 positions, Diagnostics, CodeActions, WorkspaceEdits).
//
// The server keeps every open document as a parsed rewrite.File, re-parsed
// incrementally (rewrite.Reparse) on each change, and pushes debounced
// diagnostics produced by patterns.Run. It offers a quick fix per finding,
// a "disable for this line" action, source.fixAll.gpuopt (all safe fixes to a
// fixed point through rewrite.FixFile), hover documentation from the rule
// registry, and the commands gpuopt.showHardware and gpuopt.fixAll.
//
// Jupyter notebooks come through LSP 3.17 notebook sync (notebook.go): the
// code cells are analysed as one module (rewrite/notebook), diagnostics
// are published on each cell's URI, and code actions, hover and fix-all
// asked on a cell URI answer in cell coordinates, with edits on the cells
// they change.
//
// The engine never imports this package or the protocol; everything the
// server needs from the command line (the hardware profile, library
// versions) comes in through Options as plain functions.
package lsp
