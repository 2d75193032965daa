# PyTorch twin of trig.tsr (bench/opsweep.sh, SWEEPS=trig).
import os, time, torch
torch.set_num_threads(int(os.environ.get("TSR_BENCH_THREADS", "1")))
torch.manual_seed(0)
x = torch.randn(1000, 1000); a = x.abs(); xd = x.double(); ad = xd.abs()
F = torch.nn.functional
fns = [["sin", lambda: x.sin()], ["cos", lambda: x.cos()], ["tan", lambda: x.tan()], ["sin_big", lambda: (x * 1e4).sin()],
       ["atan2", lambda: torch.atan2(x, a)], ["pow_t", lambda: a ** 1.5], ["pow_neg", lambda: x ** 1.5], ["pow_4", lambda: x ** 4],
       ["gelu", lambda: F.gelu(x)], ["gelu_tanh", lambda: F.gelu(x, approximate="tanh")],
       ["sin_f64", lambda: xd.sin()], ["cos_f64", lambda: xd.cos()], ["tan_f64", lambda: xd.tan()], ["atan2_f64", lambda: torch.atan2(xd, ad)],
       ["pow_t_f64", lambda: ad ** 1.5], ["gelu_f64", lambda: F.gelu(xd)], ["gelu_tanh_f64", lambda: F.gelu(xd, approximate="tanh")]]
for name, f in fns:
    f()
    best = 1e9
    for r in range(5):
        t0 = time.perf_counter()
        for i in range(5):
            f()
        best = min(best, (time.perf_counter() - t0) / 5 * 1e6)
    print(name, f"{best:.1f}")
