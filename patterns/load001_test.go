package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TestLOAD001FewWorkersKeepsPrefetch checks that raising a small worker
// count promises "4 batches ahead" only where the fix adds
// prefetch_factor=4: a call that sets its own prefetch_factor keeps it,
// and the message must not say otherwise (blind sample S33S's deep_sort).
func TestLOAD001FewWorkersKeepsPrefetch(t *testing.T) {
	src := `import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

train_set = datasets.ImageFolder("train", transform=transforms.ToTensor())
loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=2%s)
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.LazyLinear(10)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
`
	for _, tc := range []struct {
		extra, want string
		ahead       bool
	}{
		{"", "prefetch_factor=4", true},
		{", prefetch_factor=2", "prefetch_factor=2", false},
	} {
		code := strings.Replace(src, "%s", tc.extra, 1)
		got := ruleFindings([]byte(code), "LOAD001", &Env{Versions: DefaultVersions})
		if len(got) != 1 || got[0].Fix == nil {
			t.Fatalf("prefetch %q: want one LOAD001 finding with a fix, got %+v", tc.extra, got)
		}
		if strings.Contains(got[0].Message, "4 batches ahead") != tc.ahead {
			t.Errorf("prefetch %q: message says 4 batches ahead = %v, want %v: %q", tc.extra, !tc.ahead, tc.ahead, got[0].Message)
		}
		fixed, err := rewrite.ApplyEdits([]byte(code), got[0].Fix.Edits)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(fixed), tc.want) {
			t.Errorf("prefetch %q: the fixed loader lacks %s:\n%s", tc.extra, tc.want, fixed)
		}
	}
}
