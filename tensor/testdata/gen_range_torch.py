# Generates range_torch.json: torch.linspace and torch.arange outputs bit
# for bit (f64 as signed int64 bit patterns; PyTorch 1.13, CPU, one thread; with four threads a case is kept only
# where its values differ from one thread's) for several sizes and dtypes.
# Run: /usr/bin/python3 tensor/testdata/gen_range_torch.py
import json, struct, torch

def bits(t):
    t = t.contiguous()
    if t.dtype == torch.float32:
        return [struct.unpack('<I', struct.pack('<f', v))[0] for v in t.tolist()]
    if t.dtype == torch.float64:
        return [struct.unpack('<q', struct.pack('<d', v))[0] for v in t.tolist()]
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.view(torch.int16).to(torch.int32).bitwise_and(0xffff).tolist()
    return t.tolist()

names = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16", torch.bfloat16: "bf16",
         torch.int64: "i64", torch.int32: "i32"}
cases = []
sizes = [0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 1000, 4097]
ends = [(0.0, 1.0), (-3.7, 11.2), (1e3, -2.5), (0.1, 0.3), (-1.0, 1.0)]
for threads in (1, 4):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32):
        for s, e in ends:
            for n in sizes:
                if dt not in (torch.float32, torch.float64) and n > 255:
                    continue
                if dt in (torch.int64, torch.int32):
                    s2, e2 = s * 100, e * 100
                else:
                    s2, e2 = s, e
                t = torch.linspace(s2, e2, n, dtype=dt)
                if threads == 4:
                    torch.set_num_threads(1)
                    same = torch.equal(t, torch.linspace(s2, e2, n, dtype=dt)) or t.isnan().any()
                    torch.set_num_threads(threads)
                    if same:
                        continue
                cases.append({"op": "linspace", "start": s2, "end": e2, "n": n, "dtype": names[dt], "threads": threads, "bits": bits(t)})
    for dt in (torch.float32, torch.float64, torch.int64):
        for s, e, st in [(0, 1000, 1), (0, 5001, 1), (5, -300, -7), (0.1, 50.3, 0.37), (-2.5, 1000.0, 0.1), (1e6, 1e6 + 100, 0.3), (3, 3, 1)]:
            if dt == torch.int64 and any(float(v) != int(v) for v in (s, e, st)):
                continue
            t = torch.arange(s, e, st, dtype=dt)
            if threads == 4:
                torch.set_num_threads(1)
                same = torch.equal(t, torch.arange(s, e, st, dtype=dt))
                torch.set_num_threads(threads)
                if same:
                    continue
            cases.append({"op": "arange", "start": s, "end": e, "step": st, "dtype": names[dt], "threads": threads, "bits": bits(t)})
json.dump(cases, open(__file__.replace("gen_range_torch.py", "range_torch.json"), "w"))
