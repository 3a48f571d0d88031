"""Which of torch's linear-algebra calls run on the bf16 (and fp16)
activations that autocast hands them: a registration network (DCP,
RPMNet) computes a covariance with a matmul and takes its SVD in the
forward pass. Under autocast the matmul's output is bf16; an op autocast
does not cast back to fp32 then runs (or refuses to run) in bf16.

    python corpus/gpu/amp004_linalg.py

Prints one line per op and dtype: "runs" or the error's first line.
"""
import torch

DEV = "cuda"


def ops():
    sym = lambda m: m @ m.transpose(-1, -2) + 3 * torch.eye(3, device=DEV)  # noqa: E731
    return {
        "torch.svd": lambda m: torch.svd(m),
        "torch.linalg.svd": lambda m: torch.linalg.svd(m),
        "torch.det": lambda m: torch.det(m),
        "torch.linalg.det": lambda m: torch.linalg.det(m),
        "torch.inverse": lambda m: torch.inverse(m),
        "torch.linalg.inv": lambda m: torch.linalg.inv(m),
        "torch.linalg.eig": lambda m: torch.linalg.eig(m),
        "torch.linalg.eigh": lambda m: torch.linalg.eigh(sym(m)),
        "torch.linalg.solve": lambda m: torch.linalg.solve(m, m),
        "torch.linalg.cholesky": lambda m: torch.linalg.cholesky(sym(m)),
        "torch.linalg.qr": lambda m: torch.linalg.qr(m),
        "torch.linalg.pinv": lambda m: torch.linalg.pinv(m),
        "torch.linalg.norm": lambda m: torch.linalg.norm(m),
        "torch.matrix_exp": lambda m: torch.matrix_exp(m),
        "torch.logdet": lambda m: torch.logdet(sym(m)),
    }


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    a = torch.randn(8, 3, 64, device=DEV)
    b = torch.randn(8, 64, 3, device=DEV)
    for dtype in (torch.bfloat16, torch.float16):
        for name, op in ops().items():
            try:
                with torch.autocast("cuda", dtype=dtype):
                    cov = a @ b  # the covariance, as the network computes it
                    op(cov)
                torch.cuda.synchronize()
                print(f"{str(dtype):15} {name:24} runs (input {cov.dtype})")
            except Exception as e:  # noqa: BLE001
                print(f"{str(dtype):15} {name:24} {type(e).__name__}: {str(e).splitlines()[0][:90]}")


if __name__ == "__main__":
    main()
