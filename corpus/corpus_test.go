// Package corpus holds gpuopt's Python test data and the table-driven test
// that runs it, in the style of go/analysis' analysistest:
//
//   - corpus/<CODE>/*.py are inputs. A line carrying `# want: CODE` (several
//     codes separated by commas) must produce exactly those findings of the
//     folder's rule family on that line; every other line must produce none.
//   - corpus/<CODE>/<name>.py.golden is the file after
//     `gpuopt fix --unsafe-fixes` restricted to the rules the folder names;
//     without a golden file the fix must leave the file unchanged.
//   - corpus/<CODE>/<name>.py.hint.golden, where it exists, is the file with
//     every code action applied, hints included (hint rules' actions);
//     without one, the code actions must leave the file as the batch fix
//     does (no hint offers an edit).
//   - corpus/<CODE>/<project>/*.py are the modules of one project, each
//     checked like a case above with the project index of its folder, so
//     that values crossing modules (a loader built in one, passed to a
//     function of another) are seen.
//   - corpus/<CODE>/*.ipynb are Jupyter notebook cases, checked the same
//     way cell by cell; <name>.ipynb.golden is the fixed notebook, which
//     must pass nbformat's validation (notebook_test.go).
//
// A case may set the environment on its first lines with
// `# gpuopt-env: target-gpu=h100 xgboost=1.7 torch=2.1` (a target GPU of
// the built-in table, library versions).
//
// Run `go test ./corpus -update` to rewrite the golden files after a
// deliberate change, then read the diff.
package corpus
