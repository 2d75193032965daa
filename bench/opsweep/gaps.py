# PyTorch twin of gaps.tsr (bench/opsweep.sh, SWEEPS=gaps); threads from TSR_BENCH_THREADS.
import os, time, torch
import torch.nn.functional as F
torch.set_num_threads(int(os.environ.get("TSR_BENCH_THREADS", "1")))
torch.manual_seed(0)
x = torch.randn(1000, 1000); xd = x.double(); ad = xd.abs(); yd = torch.randn(1000, 1000).double()
vs = [torch.randn(1000) for i in range(256)]
lg = torch.randn(100, 1000, requires_grad=True)
tgt = torch.randint(0, 1000, [100])
img = torch.randn(8, 16, 64, 64)
e = torch.empty(1000, 1000)
def ce_train():
    l = F.cross_entropy(lg, tgt); l.backward()
fns = [["pow_tt_f64", lambda: ad ** yd], ["pow_15_f64", lambda: ad ** 1.5], ["pow_neg_f64", lambda: xd ** 1.5],
       ["pow_tt_f32", lambda: x.abs() ** x],
       ["gelu_f32", lambda: F.gelu(x)], ["gelu_f64", lambda: F.gelu(xd)],
       ["ce_fwd", lambda: F.cross_entropy(lg.detach(), tgt)], ["ce_train", ce_train],
       ["cumsum_last", lambda: x.cumsum(1)], ["cumsum_0", lambda: x.cumsum(0)],
       ["cumprod_last", lambda: x.cumprod(1)], ["cumprod_0", lambda: x.cumprod(0)],
       ["stack256", lambda: torch.stack(vs)], ["stack256_1", lambda: torch.stack(vs, 1)],
       ["pad_const", lambda: F.pad(img, [2, 2, 2, 2])], ["pad_reflect", lambda: F.pad(img, [2, 2, 2, 2], mode="reflect")],
       ["interp_near", lambda: F.interpolate(img, scale_factor=2)], ["interp_bilin", lambda: F.interpolate(img, scale_factor=2, mode="bilinear")],
       ["exponential_", lambda: e.exponential_()], ["amin_rows", lambda: x.amin(1)]]
for name, f in fns:
    f()
    best = 1e9
    for r in range(5):
        t0 = time.perf_counter()
        for i in range(5):
            f()
        best = min(best, (time.perf_counter() - t0) / 5 * 1e6)
    print(name, f"{best:.1f}")
