#!/usr/bin/python3
"""Generate einsum/testdata/golden.json with PyTorch and NumPy.

Run from the repository root:  /usr/bin/python3 einsum/testdata/gen_golden.py

cases:  einsum results computed by torch.einsum in float64 (inputs rounded to
        3 decimals so the JSON is exact).
errors: equations/shapes torch.einsum rejects (the Go test checks tsr's own
        message for each).
paths:  numpy.einsum_path(..., optimize='optimal') for 3-5 operand
        contractions: NumPy's path, its naive and optimised FLOP counts (the
        printed optimised count minus NumPy's +1) and largest intermediate.
"""
import json
import os

import numpy as np
import torch

rng = np.random.default_rng(20240607)


def arr(shape):
    return np.asarray(np.round(rng.standard_normal(shape), 3))


CASES = [
    # Seed chapter section 5, Lab 2 and exercises.
    ("ij->ji", [(3, 4)]),
    ("ii->", [(4, 4)]),
    ("bii->b", [(3, 4, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bik,bkj->bij", [(2, 3, 4), (2, 4, 5)]),
    ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("bhij,bhjd->bhid", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    ("bshd,bthd->bhst", [(2, 4, 3, 5), (2, 6, 3, 5)]),
    ("bhst,bthd->bshd", [(2, 3, 4, 6), (2, 6, 3, 5)]),
    ("bm,bn->bmn", [(3, 4), (3, 5)]),
    # Diagonals.
    ("ii->i", [(4, 4)]),
    ("iij->ij", [(3, 3, 2)]),
    ("iii->i", [(3, 3, 3)]),
    ("ijij->ij", [(2, 3, 2, 3)]),
    # Implicit output order (capitals first).
    ("ij,jh", [(2, 3), (3, 4)]),
    ("ba", [(2, 3)]),
    ("Ab,ba", [(2, 3), (3, 4)]),
    ("aB", [(2, 3)]),
    ("b...a", [(2, 5, 3)]),
    # Size-1 broadcasting across operands.
    ("ij,jk->ik", [(2, 1), (4, 5)]),
    ("ij,jk->ijk", [(2, 1), (4, 5)]),
    ("bij,bjk->bik", [(1, 2, 3), (4, 3, 5)]),
    ("ii,i->i", [(1, 1), (3,)]),
    # Ellipsis.
    ("i...k,k...j->i...j", [(2, 3, 1, 4), (4, 5, 6)]),
    ("...ij,...jk", [(5, 2, 3), (3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (4, 3, 4)]),
    ("...ij->ij", [(5, 2, 3)]),
    ("i...,...i->...", [(2, 3), (3, 2)]),
    # Zero-size dimensions.
    ("ij,jk->ik", [(2, 0), (0, 3)]),
    ("ij,jk->ik", [(0, 3), (3, 4)]),
    ("ij->", [(0, 3)]),
    ("ii->i", [(0, 0)]),
    # Multi-operand.
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 3), (3, 3, 3, 3), (2, 3), (2, 3)]),
    ("i,ij,jk,k->", [(3,), (3, 4), (4, 5), (5,)]),
    ("a,b,c->abc", [(2,), (3,), (4,)]),
    ("bi,bi->bi", [(2, 5), (2, 5)]),
    ("i,i->", [(5,), (5,)]),
    ("", [()]),
]

ERRORS = [
    ("i->ii", [(3,)]),
    ("ij,jk->ik", [(2, 3), (4, 5)]),
    ("ii->i", [(3, 4)]),
    ("ii", [(2, 3)]),
    ("ij->k", [(2, 3)]),
    ("i...,i...", [(2, 3), (2, 4)]),
    ("ij", [(2, 3, 4)]),
    ("ij,jk", [(2, 3)]),
]

PATHS = [
    ("ij,jk,kl->il", [(64, 512), (512, 512), (512, 8)]),
    ("ij,jk,kl->il", [(8, 512), (512, 512), (512, 64)]),
    ("ea,fb,abcd,gc,hd->efgh", [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)]),
    ("ea,fb,abcd,gc,hd->efgh", [(4, 10), (5, 10), (10, 10, 10, 10), (6, 10), (7, 10)]),
    ("ab,bc,cd,de->ae", [(30, 2), (2, 40), (40, 3), (3, 50)]),
    ("ab,bc,cd,de,ef->af", [(10, 20), (20, 30), (30, 5), (5, 40), (40, 10)]),
    ("abc,bcd,cde,def->af", [(4, 5, 6), (5, 6, 7), (6, 7, 8), (7, 8, 9)]),
    ("i,ij,jk,k->", [(100,), (100, 200), (200, 300), (300,)]),
    ("bsd,dh,bth->bst", [(2, 64, 32), (32, 16), (2, 64, 16)]),
    ("ij,jk,ik->", [(20, 30), (30, 40), (20, 40)]),
    ("abcd,dcef,fg,ge->ab", [(3, 4, 5, 6), (6, 5, 7, 8), (8, 9), (9, 7)]),
]


def flat(x):
    return [float(v) for v in np.asarray(x).reshape(-1)]


def main():
    out = {"torch": torch.__version__, "numpy": np.__version__,
           "cases": [], "errors": [], "paths": []}
    for eq, shapes in CASES:
        xs = [arr(s) for s in shapes]
        r = torch.einsum(eq, *[torch.from_numpy(x) for x in xs]).numpy()
        out["cases"].append({"eq": eq, "shapes": [list(s) for s in shapes],
                             "inputs": [flat(x) for x in xs],
                             "out_shape": list(r.shape), "out": flat(r)})
    for eq, shapes in ERRORS:
        try:
            torch.einsum(eq, *[torch.zeros(s, dtype=torch.float64) for s in shapes])
        except RuntimeError as e:
            out["errors"].append({"eq": eq, "shapes": [list(s) for s in shapes],
                                  "torch_error": str(e)})
            continue
        raise SystemExit("torch accepted error case %r" % eq)
    for eq, shapes in PATHS:
        xs = [np.zeros(s) for s in shapes]
        path, text = np.einsum_path(eq, *xs, optimize="optimal")
        # Exact costs (the printout rounds to 4 digits), recomputed with
        # NumPy's own helpers along NumPy's path.
        ef = np.core.einsumfunc
        _, contractions = np.einsum_path(eq, *xs, optimize=path, einsum_call=True)
        terms = eq.split("->")[0].split(",")
        dims = {}
        for t, s in zip(terms, shapes):
            dims.update(zip(t, s))
        cost, largest = 0, 0
        for inds, removed, estr, _, _ in contractions:
            ins, res = estr.split("->")
            cost += ef._flop_count(set(ins.replace(",", "")), removed, len(inds), dims)
            largest = max(largest, ef._compute_size_by_dict(res, dims))
        indices = set("".join(terms))
        inner = sum(len(set(t)) for t in terms) - len(indices) > 0
        naive = ef._flop_count(indices, inner, len(terms), dims)
        out["paths"].append({
            "eq": eq, "shapes": [list(s) for s in shapes],
            "numpy_path": [list(p) for p in path[1:]],
            "numpy_naive_flops": naive,
            "numpy_flops": cost,  # NumPy prints cost + 1
            "numpy_largest": largest,
            "numpy_report": text})
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "golden.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
