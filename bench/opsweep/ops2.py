# PyTorch twin of ops2.tsr (bench/opsweep.sh).
import os, time, torch
torch.set_num_threads(int(os.environ.get("TSR_BENCH_THREADS", "1")))
torch.manual_seed(0)
x = torch.randn(1000, 1000); v = torch.randn(1000); idx = torch.randint(0, 1000, [100000]); m = x > 0; b = torch.randn(64, 128, 128)
def setindex(): x[0:500] = 1.0
def item_loop():
    s = 0.0
    for i in range(1000): s += v[i].item()
fns = [["cat0", lambda: torch.cat([x, x], 0)], ["stack", lambda: torch.stack([v, v, v, v])], ["index_sel", lambda: x[idx % 1000]],
       ["gather1", lambda: x.gather(1, (idx[:1000] % 1000).reshape(1000, 1).expand(1000, 100))],
       ["masked_sel", lambda: x[m]], ["masked_fill", lambda: x.masked_fill(m, 0.0)], ["setindex", setindex],
       ["bmm", lambda: b @ b.transpose(1, 2)], ["einsum", lambda: torch.einsum("bij,bjk->bik", b, b)], ["mm256", lambda: x[:256, :256] @ x[:256, :256]],
       ["add_bcast", lambda: x + v], ["mul_col", lambda: x * v.reshape(1000, 1)], ["div_scalar", lambda: x / 3.0],
       ["sub_T", lambda: x - x.t()], ["eq", lambda: x == x], ["sum_T", lambda: x.t().sum(1)], ["max_dim1", lambda: x.max(1)],
       ["argsort", lambda: x[0].argsort()], ["unique", lambda: (idx % 100).unique()], ["repeat", lambda: v.repeat(100)],
       ["flip", lambda: x.flip(0)], ["roll", lambda: x.roll(5, 1)], ["tril", lambda: x.tril()], ["diag", lambda: x.diagonal().sum()],
       ["log_softmax", lambda: x.log_softmax(1)], ["layer_norm", lambda: torch.nn.functional.layer_norm(x, [1000])], ["ce", lambda: torch.nn.functional.cross_entropy(x[:100], idx[:100] % 1000)],
       ["f16_cast", lambda: x.to(torch.float16)], ["i64_sum", lambda: idx.sum()], ["rand", lambda: torch.rand(1000, 1000)], ["randn", lambda: torch.randn(1000, 1000)],
       ["linspace", lambda: torch.linspace(0, 1, 1000000)], ["arange", lambda: torch.arange(1000000)], ["clone", lambda: x.clone()], ["tolist", lambda: v.tolist()],
       ["item_loop", item_loop], ["nonzero", lambda: m.nonzero()], ["cumprod", lambda: (v * 0.01 + 1).cumprod(0)],
       ["pow_t", lambda: x.abs() ** 1.5], ["atan2", lambda: torch.atan2(x, x)], ["sin", lambda: x.sin()], ["erf", lambda: x.erf()], ["round", lambda: x.round()]]
for name, f in fns:
    f()
    best = 1e9
    for r in range(3):
        t0 = time.perf_counter()
        for i in range(3): f()
        best = min(best, (time.perf_counter() - t0) / 3 * 1e6)
    print(name, f"{best:.1f}")
