package rewrite

import (
	"strings"
	"testing"
)

// New imports go after the imports that open the module, not after the
// file's last import: a tutorial that imports as it goes uses the new
// name above its later imports (blind sample A: `import os` landed after
// the num_workers=os.cpu_count() it served, a NameError at run time).
func TestInsertAfterImportsStopsAtFirstCode(t *testing.T) {
	cases := []struct{ name, src, stmt, want string }{
		{"imports spread through the file",
			"\"\"\"Doc.\"\"\"\n# comment\nimport torch\nimport torchvision\n\nx = 1\nimport matplotlib\n",
			"import os",
			"\"\"\"Doc.\"\"\"\n# comment\nimport torch\nimport torchvision\nimport os\n\nx = 1\nimport matplotlib\n"},
		{"docstring only: after it, so __doc__ stays",
			"\"\"\"Doc.\"\"\"\nx = 1\nimport torch\n",
			"import os",
			"\"\"\"Doc.\"\"\"\nimport os\nx = 1\nimport torch\n"},
		{"code first: at the top",
			"x = 1\nimport torch\n",
			"import os",
			"import os\nx = 1\nimport torch\n"},
		{"future import",
			"from __future__ import annotations\nimport sys\nsys.path.insert(0, '.')\nimport torch\n",
			"import os",
			"from __future__ import annotations\nimport sys\nimport os\nsys.path.insert(0, '.')\nimport torch\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("t.py", []byte(c.src))
			out, err := ApplyEdits(f.Src.Bytes, []Edit{f.Model().InsertAfterImports(c.stmt)})
			if err != nil || string(out) != c.want {
				t.Errorf("got\n%s\nwant\n%s", out, c.want)
			}
		})
	}
}

// AddImport extends an existing `from module import` line wherever it is,
// and otherwise adds its line where InsertAfterImports puts one.
func TestAddImportPlacement(t *testing.T) {
	f := Parse("t.py", []byte("import numpy as np\nfrom xgboost import DMatrix\n\nd = DMatrix(np.zeros((2, 2)))\nimport pandas\n"))
	e, ok := f.Model().AddImport("xgboost", "QuantileDMatrix")
	out, _ := ApplyEdits(f.Src.Bytes, []Edit{e})
	if !ok || !strings.Contains(string(out), "from xgboost import DMatrix, QuantileDMatrix\n") {
		t.Errorf("extend: %s", out)
	}
	f = Parse("t.py", []byte("import numpy as np\n\nd = 1\nimport xgboost\n"))
	e, ok = f.Model().AddImport("xgboost", "QuantileDMatrix")
	out, _ = ApplyEdits(f.Src.Bytes, []Edit{e})
	if want := "import numpy as np\nfrom xgboost import QuantileDMatrix\n\nd = 1\nimport xgboost\n"; !ok || string(out) != want {
		t.Errorf("new line: got\n%s\nwant\n%s", out, want)
	}
}

// A statement naming a late import goes after that import.
func TestInsertAfterImportsFollowsTheNamesItUses(t *testing.T) {
	f := Parse("t.py", []byte("import numpy as np\n\nx = np.zeros(2)\nimport torch\n\nmodel = torch.nn.Linear(2, 2)\n"))
	e := f.Model().InsertAfterImports(`device = torch.device("cuda" if torch.cuda.is_available() else "cpu")`)
	out, _ := ApplyEdits(f.Src.Bytes, []Edit{e})
	want := "import numpy as np\n\nx = np.zeros(2)\nimport torch\ndevice = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n\nmodel = torch.nn.Linear(2, 2)\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
