package rewrite

import "testing"

// TestLinalgInForward finds the SVD, inverse or solve a forward takes of
// an activation, directly or through a function of the module it calls,
// and passes over ops on parameters, on cast tensors, outside forward,
// and NumPy's.
func TestLinalgInForward(t *testing.T) {
	cases := []struct {
		src  string
		want string // the call's text, "" for none
	}{
		{"import torch\nclass H:\n    def forward(self, a, b):\n        h = a @ b\n        return torch.svd(h)\n", "torch.svd(h)"},
		{"import torch\ndef procrustes(x, y):\n    return torch.linalg.svd(x.transpose(1, 2) @ y)\nclass H:\n    def forward(self, a, b):\n        return procrustes(a, b)\n", "torch.linalg.svd(x.transpose(1, 2) @ y)"},
		{"from torch import linalg\nclass H:\n    def forward(self, a):\n        return linalg.solve(a @ a, a)\n", "linalg.solve(a @ a, a)"},
		{"class H:\n    def forward(self, a):\n        h = a @ a\n        return h.inverse()\n", "h.inverse()"},
		{"import torch\nclass H:\n    def forward(self, x):\n        return x @ torch.inverse(self.weight)\n", ""},
		{"import torch\nclass H:\n    def forward(self, x):\n        return torch.svd((x @ x).float())\n", ""},
		{"import torch\nclass H:\n    def __init__(self, m):\n        self.inv = torch.inverse(m)\n    def forward(self, x):\n        return x @ self.inv\n", ""},
		{"import numpy as np\nclass H:\n    def forward(self, x):\n        return np.linalg.det(x)\n", ""},
		{"import torch\nclass H:\n    def forward(self, x):\n        return torch.linalg.eigh(x @ x.T)\n", ""},
	}
	for _, c := range cases {
		m := Parse("t.py", []byte(c.src)).Model()
		got := ""
		if call := m.LinalgInForward(); call != nil {
			got = call.Text()
		}
		if got != c.want {
			t.Errorf("LinalgInForward in %q = %q, want %q", c.src, got, c.want)
		}
	}
}
