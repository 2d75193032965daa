# PyTorch twin of loop_temps.tsr (bench/temporaries.sh).
import sys
import time

import torch

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
for n in [1000, 100000, 1000000]:
    z = torch.randn(n)
    w = z + z
    v = z + 0
    iters = 400 if n >= 1000000 else 4000
    b = [1e9, 1e9, 1e9]
    for r in range(5):
        t0 = time.perf_counter()
        for i in range(iters):
            w = z + z
        b[0] = min(b[0], (time.perf_counter() - t0) / iters * 1e6)
        t0 = time.perf_counter()
        for i in range(iters):
            w = z * 2.0 + z
        b[1] = min(b[1], (time.perf_counter() - t0) / iters * 1e6)
        t0 = time.perf_counter()
        for i in range(iters):
            v = v / v.norm()
        b[2] = min(b[2], (time.perf_counter() - t0) / iters * 1e6)
    print(f"add{n} {b[0]:.2f}")
    print(f"axpy{n} {b[1]:.2f}")
    print(f"normalize{n} {b[2]:.2f}")
