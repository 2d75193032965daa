# PyTorch twin of ops.tsr (bench/opsweep.sh).
import os, time

import torch
torch.set_num_threads(int(os.environ.get("TSR_BENCH_THREADS", "1")))
x = torch.randn(1000, 1000)
fns = [["sum", lambda: x.sum()], ["mean", lambda: x.mean()], ["std", lambda: x.std()], ["var1", lambda: x.var(1)],
       ["max", lambda: x.max()], ["argmax", lambda: x.argmax()], ["amax1", lambda: x.amax(1)], ["min0", lambda: x.min(0)],
       ["prod1", lambda: x.prod(1)], ["norm1", lambda: x.norm(dim=1)], ["abs", lambda: x.abs()], ["cumsum1", lambda: x.cumsum(1)],
       ["mean0", lambda: x.mean(0)], ["std1", lambda: x.std(1)], ["logsumexp1", lambda: x.logsumexp(1)], ["all", lambda: (x > 0).all()],
       ["clamp", lambda: x.clamp(-1, 1)], ["where", lambda: torch.where(x > 0, x, 0.0)], ["pow2", lambda: x ** 2], ["square", lambda: x.square()],
       ["sqrt_abs", lambda: x.abs().sqrt()], ["relu", lambda: x.relu()], ["gelu", lambda: torch.nn.functional.gelu(x)], ["sigmoid", lambda: x.sigmoid()],
       ["tanh", lambda: x.tanh()], ["exp", lambda: x.exp()], ["log_abs", lambda: x.abs().log()], ["sort1", lambda: x.sort(1)],
       ["topk", lambda: x.topk(10, 1)], ["transpose_c", lambda: x.t().contiguous()], ["matvec", lambda: x @ x[0]], ["softmax1", lambda: x.softmax(1)]]
for name, f in fns:
    f()
    best = 1e9
    for r in range(5):
        t0 = time.perf_counter()
        for i in range(5): f()
        best = min(best, (time.perf_counter() - t0) / 5 * 1e6)
    print(name, f"{best:.1f}")
