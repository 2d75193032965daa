# PyTorch twin of act.tsr (bench/opsweep.sh, SWEEPS=act).
import time, torch
torch.manual_seed(0)
F = torch.nn.functional
relu_m = torch.nn.ReLU(inplace=True)
g = {}
fns = [["relu", lambda: torch.relu(g["x"])], ["relu_", lambda: g["x"].relu_()], ["F.relu_inplace", lambda: F.relu(g["x"], inplace=True)],
       ["ReLU_inplace", lambda: relu_m(g["x"])], ["leaky_relu", lambda: F.leaky_relu(g["x"])], ["leaky_relu_", lambda: F.leaky_relu_(g["x"], 0.5)],
       ["hardtanh", lambda: F.hardtanh(g["x"])], ["hardtanh_", lambda: F.hardtanh_(g["x"], -3.0, 3.0)],
       ["clamp", lambda: g["x"].clamp(-1.0, 1.0)], ["clamp_", lambda: g["x"].clamp_(-3.0, 3.0)]]
for n in [1, 2]:
    torch.set_num_threads(n)
    for name, f in fns:
        g["x"] = torch.randn(2048, 2048)
        f()
        best = 1e9
        for r in range(5):
            t0 = time.perf_counter()
            for i in range(5):
                f()
            best = min(best, (time.perf_counter() - t0) / 5 * 1e6)
        print(f"{name}@{n}", f"{best:.1f}")
