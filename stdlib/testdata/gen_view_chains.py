#!/usr/bin/env python3
"""Differential tester: random chains of view ops, tsr against PyTorch 1.13.

Each random program builds a small arange-based base tensor (f32, f64 or
i64), applies a chain of views (basic indexing with steps and negative
indices, select, narrow, transpose/t/permute/mT, expand/broadcast_to,
unsqueeze/squeeze, view/reshape/flatten/unflatten, unfold, diagonal,
as_strided, movedim, split/chunk/unbind pieces), writes in place through
the final view (add_, mul_, fill_, copy_, index assignment, masked_fill_)
and prints the base, the view, its shape, strides, storage offset,
contiguity, data_ptr equality with the base and a reduction. A gradient
variant makes a float base require grad (or writes in place into a view of
a non-leaf) and prints base.grad after backward.

The program is written once in a tiny statement list; to_tsr / to_torch
spell it for each side. The generator runs every statement in PyTorch as
it goes, so that the chain is mostly valid; the statement that fails in
PyTorch ends the program (both sides must fail there with the same kind).

Usage (both from the repository root):

    /usr/bin/python3 stdlib/testdata/gen_view_chains.py --tsr /tmp/tsr -n 2000 --seed 1
    /usr/bin/python3 stdlib/testdata/gen_view_chains.py --show 17 --seed 1   # one program, both spellings

Divergences are written to /tmp/view_chains_div/ (tsr source, torch
source, both outputs).
"""
import argparse
import io
import os
import random
import re
import subprocess
import sys
import contextlib

import torch

DT = {"f32": "torch.float32", "f64": "torch.float64", "i64": "torch.int64"}
SHORT = {"torch.float32": "f32", "torch.float64": "f64", "torch.int64": "i64", "torch.bool": "bool",
         "torch.float16": "f16", "torch.int32": "i32"}


def to_torch(s):
    s = re.sub(r"(?<![\w.])(arange|tensor|zeros|ones|full)\(", r"torch.\1(", s)
    s = re.sub(r"\bdtype=(\w+)", lambda m: "dtype=" + DT[m.group(1)], s)
    s = re.sub(r"\btrue\b", "True", s)
    s = re.sub(r"\bfalse\b", "False", s)
    s = re.sub(r"\bnone\b", "None", s)
    return s


def norm_torch_out(s):
    s = re.sub(r"torch\.Size\(\[(.*?)\]\)", r"[\1]", s)
    s = re.sub(r"torch\.\w+", lambda m: SHORT.get(m.group(0), m.group(0)), s)
    s = re.sub(r"\bTrue\b", "true", s)
    s = re.sub(r"\bFalse\b", "false", s)
    return s


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.stmts = []  # tsr spelling
        self.env = {"torch": torch}
        self.failed = None

    def run(self, stmt):
        """Run stmt (tsr spelling) in torch; record it. Returns False once it failed."""
        self.stmts.append(stmt)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(to_torch(stmt), self.env)
        except Exception as e:  # noqa: BLE001
            self.failed = type(e).__name__
            return False
        return True

    def v(self):
        return self.env["v"]

    # ---- view ops ----
    def rand_index(self, n):
        return self.r.randint(-n, n - 1) if n > 0 else 0

    def rand_slice(self, n):
        r = self.r
        parts = []
        a = r.choice([None, None, r.randint(-n - 1, n + 1)])
        b = r.choice([None, None, r.randint(-n - 1, n + 1)])
        c = r.choice([None, None, 1, 2, 3] + ([-1] if r.random() < 0.03 else []))
        for x in (a, b):
            parts.append("" if x is None else str(x))
        s = ":".join(parts)
        if c is not None:
            s += ":" + str(c)
        return s

    def view_op(self):
        r = self.r
        t = self.v()
        shp = list(t.shape)
        nd = len(shp)
        ops = ["slice", "select", "narrow", "transpose", "permute", "unsqueeze", "squeeze", "view", "reshape",
               "flatten", "expand", "unfold", "diagonal", "as_strided", "movedim", "split", "chunk", "unbind",
               "t", "mT", "unflatten", "broadcast_to", "T"]
        op = r.choice(ops)
        dim = lambda: r.randint(-nd, nd - 1) if nd > 0 else 0  # noqa: E731
        if op == "slice":
            items = []
            k = r.randint(1, max(1, nd))
            di = 0
            for _ in range(k):
                ch = r.random()
                if ch < 0.1:
                    items.append("none")
                elif ch < 0.17 and "..." not in items:
                    items.append("...")
                    di = max(di, nd - (k - len(items)))
                elif di < nd and ch < 0.35:
                    items.append(str(self.rand_index(shp[di])))
                    di += 1
                else:
                    items.append(self.rand_slice(shp[di] if di < nd else 1))
                    di += 1
            return f"v = v[{', '.join(items)}]"
        if op == "select" and nd > 0:
            d = dim()
            return f"v = v.select({d}, {self.rand_index(shp[d])})"
        if op == "narrow" and nd > 0:
            d = dim()
            s = r.randint(0, shp[d])
            return f"v = v.narrow({d}, {s}, {r.randint(0, shp[d] - s)})"
        if op == "transpose":
            return f"v = v.transpose({dim()}, {dim()})"
        if op == "permute":
            p = list(range(nd))
            r.shuffle(p)
            if r.random() < 0.3:
                p = [x - nd if r.random() < 0.5 else x for x in p]
            return f"v = v.permute({', '.join(map(str, p))})" if nd else "v = v.permute()"
        if op == "unsqueeze":
            return f"v = v.unsqueeze({r.randint(-nd - 1, nd)})"
        if op == "squeeze":
            return "v = v.squeeze()" if r.random() < 0.3 or nd == 0 else f"v = v.squeeze({dim()})"
        if op in ("view", "reshape"):
            n = t.numel()
            sizes = []
            rem = n
            while rem > 1 and len(sizes) < 3:
                divs = [d for d in range(1, rem + 1) if rem % d == 0]
                d = r.choice(divs)
                sizes.append(d)
                rem //= d
            sizes.append(rem)
            if r.random() < 0.3:
                sizes.insert(r.randint(0, len(sizes)), 1)
            if r.random() < 0.4:
                sizes[r.randrange(len(sizes))] = -1
            r.shuffle(sizes)
            if n == 0 and r.random() < 0.5:
                sizes = [0] + sizes
            return f"v = v.{op}({', '.join(map(str, sizes))})"
        if op == "flatten":
            if nd == 0 or r.random() < 0.3:
                return "v = v.flatten()"
            a = dim()
            b = dim()
            return f"v = v.flatten({a}, {b})"
        if op in ("expand", "broadcast_to"):
            sizes = []
            for s in shp:
                if s == 1:
                    sizes.append(r.choice([1, 2, 3, -1]) if op == "expand" else r.choice([1, 2, 3]))
                else:
                    sizes.append(-1 if op == "expand" and r.random() < 0.5 else s)
            lead = [r.randint(1, 3) for _ in range(r.choice([0, 0, 1, 2]))]
            sizes = lead + sizes
            if op == "expand":
                return f"v = v.expand({', '.join(map(str, sizes))})" if sizes else "v = v.expand()"
            return f"v = v.broadcast_to([{', '.join(map(str, sizes))}])"
        if op == "unfold":
            if nd == 0:
                return f"v = v.unfold(0, {r.randint(0, 1)}, 1)"
            d = dim()
            return f"v = v.unfold({d}, {r.randint(0, shp[d])}, {r.randint(1, 3)})"
        if op == "diagonal" and nd >= 2:
            a = dim()
            b = dim()
            if a % nd == b % nd and r.random() < 0.9:
                b = (a + 1) % nd
            return f"v = v.diagonal({r.randint(-3, 3)}, {a}, {b})"
        if op == "as_strided":
            base = self.env["b"]
            n = base.numel()
            if n == 0:
                return "v = v.as_strided([0], [1], 0)"
            k = r.randint(0, 3)
            size = [r.randint(1, 3) for _ in range(k)]
            stride = [r.randint(0, 4) for _ in range(k)]
            ext = sum((s - 1) * st for s, st in zip(size, stride))
            if ext >= n and r.random() < 0.95:
                return None
            off = r.randint(0, max(0, n - 1 - ext))
            if r.random() < 0.03:
                off = n
            return f"v = v.as_strided([{', '.join(map(str, size))}], [{', '.join(map(str, stride))}], {off})"
        if op == "movedim" and nd > 0:
            if r.random() < 0.5:
                return f"v = v.movedim({dim()}, {dim()})"
            k = r.randint(1, nd)
            src = r.sample(range(nd), k)
            dst = r.sample(range(nd), k)
            return f"v = v.movedim([{', '.join(map(str, src))}], [{', '.join(map(str, dst))}])"
        if op in ("split", "chunk") and nd > 0:
            d = dim()
            if op == "split" and r.random() < 0.3:
                n = shp[d]
                parts = []
                while n > 0:
                    p = r.randint(0, n)
                    parts.append(p)
                    n -= p
                    if len(parts) > 3:
                        parts.append(n)
                        break
                if not parts:
                    parts = [0]
                k = r.randrange(len(parts))
                return f"v = v.split([{', '.join(map(str, parts))}], {d})[{k}]"
            c = r.randint(1, 3)
            nparts = len(t.split(c, d)) if op == "split" else len(t.chunk(c, d))
            k = r.randint(-nparts, nparts - 1) if nparts else 0
            return f"v = v.{op}({c}, {d})[{k}]"
        if op == "unbind" and nd > 0:
            d = dim()
            return f"v = v.unbind({d})[{self.rand_index(shp[d])}]"
        if op == "t" and nd <= 2:
            return "v = v.t()"
        if op == "T" and nd == 2:
            return "v = v.T"
        if op == "mT" and nd >= 2:
            return "v = v.mT"
        if op == "unflatten" and nd > 0:
            d = dim()
            n = shp[d]
            divs = [x for x in range(1, n + 1) if n % x == 0] or [1]
            a = r.choice(divs)
            sizes = [a, n // a] if n else [0, r.randint(1, 2)]
            if r.random() < 0.3:
                sizes[r.randrange(2)] = -1
            return f"v = v.unflatten({d}, [{', '.join(map(str, sizes))}])"
        return None

    # ---- in-place writes ----
    def val_tensor(self, shape, dt):
        n = 1
        for s in shape:
            n *= s
        sh = ", ".join(map(str, shape))
        if n == 0:
            return f"zeros([{sh}], dtype={dt})"
        return f"(arange({n}, dtype={dt}) * -1 - 1).reshape([{sh}])"

    def write_op(self, dt):
        r = self.r
        t = self.v()
        shp = list(t.shape)
        nd = len(shp)
        scal = r.choice(["2", "-3", "0.5", "1.5"]) if dt != "i64" or r.random() < 0.1 else r.choice(["2", "-3"])
        op = r.choice(["add_", "add_t", "mul_", "fill_", "copy_", "setitem", "setitem_t", "masked_fill_", "sub_", "iadd"])
        if op == "add_":
            return f"v.add_({scal})"
        if op == "iadd":
            return f"v += {scal}"
        if op == "sub_":
            return f"v.sub_({scal}, alpha=2)"
        if op == "mul_":
            return f"v.mul_({scal})"
        if op == "fill_":
            return f"v.fill_({scal})"
        if op in ("add_t", "copy_"):
            # value shape broadcastable to shp
            vs = [s if r.random() < 0.7 else 1 for s in shp]
            if vs and r.random() < 0.4:
                vs = vs[r.randint(0, len(vs)):]
            wdt = dt if r.random() < 0.8 else r.choice(["f32", "f64", "i64"])
            return f"v.{'add_' if op == 'add_t' else 'copy_'}({self.val_tensor(vs, wdt)})"
        if op == "masked_fill_":
            return f"v.masked_fill_((v.clone() % 3) == 0, {scal})" if dt != "i64" else \
                f"v.masked_fill_((v % 3) == 0, {scal})"
        if op in ("setitem", "setitem_t"):
            if nd == 0:
                idx = "..."
                sub = []
            else:
                items = []
                sub = []
                for i, s in enumerate(shp[:r.randint(1, nd)]):
                    if r.random() < 0.4:
                        items.append(str(self.rand_index(s)))
                    else:
                        sl = self.rand_slice(s).replace("-1", "1") if ":" in self.rand_slice(s) else ":"
                        sl = re.sub(r":-1$", "", sl)
                        items.append(sl)
                idx = ", ".join(items)
            if op == "setitem":
                return f"v[{idx}] = {scal}"
            # tensor value with the indexed shape
            try:
                tgt = eval(to_torch(f"v[{idx}]"), self.env)
            except Exception:  # noqa: BLE001
                return f"v[{idx}] = {scal}"
            return f"v[{idx}] = {self.val_tensor(list(tgt.shape), dt)}"
        return None

    def prints(self):
        r = self.r
        out = ["print(b)", "print(v)",
               "print(v.shape, v.stride(), v.storage_offset(), v.is_contiguous(), v.data_ptr() == b.data_ptr())"]
        nd = self.v().dim()
        if nd > 0:
            out.append(f"print(v.sum({r.randint(-nd, nd - 1)}))")
        else:
            out.append("print(v.sum())")
        return out


def gen_program(seed):
    r = random.Random(seed)
    g = Gen(r)
    dt = r.choice(["f32", "f64", "i64"])
    grad = dt != "i64" and r.random() < 0.3
    nd = r.randint(0, 4)
    shape = [r.randint(1, 4) if r.random() < 0.95 else 0 for _ in range(nd)]
    n = 1
    for s in shape:
        n *= s
    sh = ", ".join(map(str, shape))
    mode = "plain"
    if grad:
        mode = r.choice(["leaf", "leaf", "nonleaf_inplace"])
        g.run(f"b = arange({n}, dtype={dt}).reshape([{sh}]).requires_grad_()")
        if mode == "nonleaf_inplace":
            g.run("c = b * 1")
            g.run("v = c")
        else:
            g.run("v = b")
    else:
        g.run(f"b = arange({n}, dtype={dt}).reshape([{sh}])")
        g.run("v = b")
    nops = r.randint(1, 6)
    for _ in range(nops):
        for _try in range(10):
            st = g.view_op()
            if st is not None:
                break
        if st is None:
            continue
        if not g.run(st):
            return g
    if grad:
        if mode == "nonleaf_inplace":
            w = g.write_op(dt)
            if w is None or not g.run(w):
                return g
            if not g.run(f"(c * arange({n}, dtype={dt}).reshape([{sh}])).sum().backward()"):
                return g
        else:
            outs = ["v * 2", "v * v", "v.exp()", "v.cumsum(0) if False else v * 3", "v.pow(3)", "(v + 1).log()"]
            o = r.choice(["(v * v)", "v.pow(3)", "(v * 3)", "v.clone()", "v.exp()"])
            if o == "v.exp()" and n > 0:
                pass
            if not g.run(f"y = {o}"):
                return g
            if not g.run("y.sum().backward()"):
                return g
        g.run("print(b.grad)")
        return g
    for _ in range(r.randint(1, 2)):
        w = g.write_op(dt)
        if w is None:
            continue
        if not g.run(w):
            return g
    for p in g.prints():
        if not g.run(p):
            return g
    return g


def tsr_program(stmts):
    lines = ["try {"]
    for i, s in enumerate(stmts):
        lines.append(f"    st = {i}")
        lines.append("    " + s)
    lines.append('} catch e { print("ERR", e.kind, "at", st) }')
    return "\n".join(lines) + "\n"


def torch_program(stmts):
    lines = ["import torch", "st = -1", "try:"]
    for i, s in enumerate(stmts):
        lines.append(f"    st = {i}")
        lines.append("    " + to_torch(s))
    lines.append("except Exception as e:")
    lines.append("    print('ERR', type(e).__name__, 'at', st)")
    return "\n".join(lines) + "\n"


def run_torch(stmts):
    env = {}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        exec(torch_program(stmts), env)
    return norm_torch_out(buf.getvalue())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsr", default="/tmp/h8tsr")
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=None)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--out", default="/tmp/view_chains_div")
    a = ap.parse_args()
    import warnings
    warnings.filterwarnings("ignore")
    if a.show is not None:
        g = gen_program(a.seed * 1000003 + a.show)
        print(tsr_program(g.stmts))
        print(torch_program(g.stmts))
        print("--- torch:\n" + run_torch(g.stmts))
        return
    os.makedirs(a.out, exist_ok=True)
    ndiv = 0
    for start in range(0, a.n, a.batch):
        progs = []
        for k in range(start, min(a.n, start + a.batch)):
            g = gen_program(a.seed * 1000003 + k)
            progs.append((k, g.stmts))
        src = []
        for k, stmts in progs:
            src.append(f'print("=== {k}")')
            src.append(tsr_program(stmts))
        with open("/tmp/h8_batch.tsr", "w") as f:
            f.write("\n".join(src))
        p = subprocess.run(["nice", "-n", "19", a.tsr, "/tmp/h8_batch.tsr"], capture_output=True, text=True,
                           timeout=600)
        got = {}
        cur = None
        for line in (p.stdout + ("\nTSR-STDERR " + p.stderr if p.stderr else "")).split("\n"):
            m = re.fullmatch(r"=== (\d+)", line)
            if m:
                cur = int(m.group(1))
                got[cur] = []
            elif cur is not None:
                got[cur].append(line)
        for k, stmts in progs:
            want = run_torch(stmts).rstrip("\n")
            have = "\n".join(got.get(k, ["<missing>"])).rstrip("\n")
            if want != have:
                ndiv += 1
                with open(os.path.join(a.out, f"{a.seed}_{k}.txt"), "w") as f:
                    f.write(tsr_program(stmts) + "\n--- torch\n" + want + "\n--- tsr\n" + have + "\n")
        print(f"{min(a.n, start + a.batch)} programs, {ndiv} divergences", flush=True)


if __name__ == "__main__":
    main()
