package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// DataParallel is OPT005.
var DataParallel = &Rule{
	Code:      "OPT005",
	Name:      "data-parallel",
	Title:     "Use DistributedDataParallel instead of nn.DataParallel",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"DataParallel"}, // every spelling of nn.DataParallel ends in it
	Check:     checkDataParallel,
	Doc: `## What it does
Finds ` + "`torch.nn.DataParallel(...)`" + `.

## Why is this bad?
` + "`DataParallel`" + ` runs one Python process that scatters every batch, replicates
the model onto each GPU on every forward, and gathers outputs and gradients
on the first GPU, which becomes the bottleneck (and holds more memory than
the others). PyTorch recommends ` + "`DistributedDataParallel`" + ` (one process per
GPU, gradients all-reduced with NCCL) even on a single machine.

## Example
` + "```python" + `
model = nn.DataParallel(model).cuda()
` + "```" + `

## Use instead
` + "```python" + `
# launched with: torchrun --nproc_per_node=NUM_GPUS train.py
dist.init_process_group("nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
model = DistributedDataParallel(model.cuda(local_rank), device_ids=[local_rank])
# and a DistributedSampler for the DataLoader
` + "```" + `

## Fix safety
Hint only: moving to DDP changes how the script is launched, the sampler, and
checkpointing and logging (rank 0 only); gpuopt does not rewrite it.

## Measured gain
Not measured by gpuopt.
`,
}

func init() { Register(DataParallel) }

func checkDataParallel(p *Pass) {
	for _, call := range p.Model.CallsTo("torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel") {
		p.Report(call, "nn.DataParallel replicates the model every step and gathers on one GPU: use DistributedDataParallel (one process per GPU, launched with torchrun)", nil)
	}
}
