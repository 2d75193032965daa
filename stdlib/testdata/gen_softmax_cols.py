# Golden programs for softmax / log_softmax over a non-last dim with fewer
# columns than a vector holds (inner < 8 for f32, < 4 for f64): PyTorch
# 1.13's scalar column loop. Each case is a tsr program printing whether
# tsr's results equal torch's bit for bit (tolist() ==) and the expected
# output. f64 agrees but where glibc's exp misrounds (about 1 argument in
# 1000; tsr's is correctly rounded): the cases avoid such arguments. Run:
#   /usr/bin/python3 stdlib/testdata/gen_softmax_cols.py > stdlib/testdata/softmax_cols.json
import json
import torch

torch.manual_seed(1)
NI = '-float("inf")'


def lit(t):
    return json.dumps(t.flatten().tolist()).replace("-Infinity", NI)


cases = []
for dt, name, shapes in [
    (torch.float32, "f32", [((5, 20, 3), 1), ((70, 3), 0), ((4, 7, 5), 1), ((6, 2), 0), ((2, 4, 3, 2), 1), ((40, 7), 0)]),
    (torch.float64, "f64", [((5, 10, 3), 1), ((70, 3), 0), ((6, 2), 0)]),
]:
    for shape, dim in shapes:
        x = (torch.randn(*shape) * 4).to(dt)
        x.view(-1)[3] = float("-inf")
        src = (
            "x = tensor(" + lit(x) + ", dtype=" + name + ").reshape(" + ", ".join(map(str, shape)) + ")\n"
            "print(softmax(x, " + str(dim) + ").flatten().tolist() == " + lit(torch.softmax(x, dim)) + ", "
            "log_softmax(x, " + str(dim) + ").flatten().tolist() == " + lit(torch.log_softmax(x, dim)) + ")"
        )
        cases.append({"name": name + str(list(shape)) + " dim " + str(dim), "src": src, "want": "true true"})
print(json.dumps(cases, indent=0))
