package patterns

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// longLoop is a training loop whose body has n steps of the shape SYNC001
// and SYNC002 report, all writing one accumulator and one list: the case
// where per-finding dataflow queries once made check quadratic (a
// 60,000-line loop took ten minutes).
func longLoop(n int) []byte {
	var sb strings.Builder
	sb.WriteString("import torch\nmodel = torch.nn.Linear(4, 4).cuda()\nopt = torch.optim.AdamW(model.parameters())\ntotal = 0.0\nouts = []\nfor step in range(10):\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "    x%d = model(torch.randn(2, 4).cuda())\n    total += x%d.sum().item()\n    outs.append(x%d.cpu())\n", i, i, i)
	}
	sb.WriteString("    x0.sum().backward()\n    opt.step()\nprint(total, torch.cat(outs))\n")
	return []byte(sb.String())
}

// BenchmarkLongLoop checks loops of growing length: time per op should
// grow about linearly with the size.
//
//	go test ./patterns -run XXX -bench LongLoop
func BenchmarkLongLoop(b *testing.B) {
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, CPUCount: 16}
	for _, n := range []int{1000, 4000} {
		src := longLoop(n)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				Run(rewrite.Parse("loop.py", src), Selection{}, env)
			}
		})
	}
}
