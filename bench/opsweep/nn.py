# PyTorch twin of nn.tsr (bench/opsweep.sh).
import os, time, torch
import torch.nn.functional as F
torch.set_num_threads(int(os.environ.get("TSR_BENCH_THREADS", "1")))
torch.manual_seed(0)
x = torch.randn(1000, 1000)
xg = torch.randn(1000, 1000, requires_grad=True)
w = torch.randn(1000, requires_grad=True)
bb = torch.randn(1000, requires_grad=True)
g = torch.randn(1000, 1000)
x3 = torch.randn(32, 64, 96)
lg = torch.randn(100, 1000, requires_grad=True)
lg2 = torch.randn(512, 1000, requires_grad=True)
tgt = torch.randint(0, 1000, [512])
def ln_train():
    y = F.layer_norm(xg, [1000], w, bb); y.backward(g)
def ln_train_wb():
    y = F.layer_norm(x, [1000], w, bb); y.backward(g)
def ce_train():
    l = F.cross_entropy(lg, tgt[:100]); l.backward()
def ce_train512():
    l = F.cross_entropy(lg2, tgt); l.backward()
def ce_smooth():
    l = F.cross_entropy(lg2, tgt, label_smoothing=0.1); l.backward()
fns = [["ln_fwd", lambda: F.layer_norm(x, [1000])],
       ["ln_fwd_wb", lambda: F.layer_norm(x, [1000], w.detach(), bb.detach())],
       ["ln_fwd_3d", lambda: F.layer_norm(x3, [64, 96])],
       ["ln_train", ln_train], ["ln_train_wb", ln_train_wb],
       ["ce_fwd", lambda: F.cross_entropy(x[:100], tgt[:100])],
       ["ce_fwd512", lambda: F.cross_entropy(x[:512], tgt)],
       ["ce_train", ce_train], ["ce_train512", ce_train512], ["ce_smooth", ce_smooth]]
for name, f in fns:
    f()
    best = 1e9
    for r in range(3):
        t0 = time.perf_counter()
        for i in range(3): f()
        best = min(best, (time.perf_counter() - t0) / 3 * 1e6)
    print(name, f"{best:.1f}")
