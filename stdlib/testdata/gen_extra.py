#!/usr/bin/env python3
"""Generate stdlib/testdata/extra_golden.json for stdlib/extra_test.go.

Each case is a tsr program and the same computation in PyTorch 1.13; the
program leaves its result in the global `r` (a tensor). The golden file keeps
the PyTorch result's dtype, shape and values (as Python reprs, so that nan and
inf survive JSON). Run with /usr/bin/python3 (torch and numpy installed):

    /usr/bin/python3 stdlib/testdata/gen_extra.py
"""
import json
import os

import torch

X = "tensor([[3., 1., 2.], [0., 5., 4.]])"
XT = "torch.tensor([[3., 1., 2.], [0., 5., 4.]])"
NANS = "tensor([[1., nan, 2., nan], [4., 3., 2., 1.], [2., 7., nan, 5.]])"
NANST = "torch.tensor([[1., float('nan'), 2., float('nan')], [4., 3., 2., 1.], [2., 7., float('nan'), 5.]])"
W = "[3., 1., 2., 7.]"

# (name, tsr program, torch expression or statements setting r)
CASES = [
    # ---- wrapped Python numbers are cast to the common dtype first ----
    ("bf16_mul_float", "r = tensor([2.25], dtype=bf16) * 3.3", "r = torch.tensor([2.25], dtype=torch.bfloat16) * 3.3"),
    ("bf16_rmul_float", "r = 3.3 * tensor([2.25], dtype=bf16)", "r = 3.3 * torch.tensor([2.25], dtype=torch.bfloat16)"),
    ("bf16_mul_method", "r = tensor([2.25], dtype=bf16).mul(3.3)", "r = torch.tensor([2.25], dtype=torch.bfloat16).mul(3.3)"),
    ("bf16_imul", "r = tensor([2.25], dtype=bf16)\nr *= 3.3", "r = torch.tensor([2.25], dtype=torch.bfloat16)\nr *= 3.3"),
    ("bf16_eq_float", "r = tensor([2.25], dtype=bf16) == 2.2501", "r = torch.tensor([2.25], dtype=torch.bfloat16) == 2.2501"),
    ("bf16_lt_float", "r = tensor([2.25], dtype=bf16) < 2.2501", "r = torch.tensor([2.25], dtype=torch.bfloat16) < 2.2501"),
    ("bf16_mul_bigint", "r = tensor([1.5], dtype=bf16) * 257", "r = torch.tensor([1.5], dtype=torch.bfloat16) * 257"),
    ("f16_sub_float", "r = tensor([2.25], dtype=f16) - 3.3", "r = torch.tensor([2.25], dtype=torch.float16) - 3.3"),
    ("f16_pow_float", "r = tensor([2.25], dtype=f16) ** 3.3", "r = torch.tensor([2.25], dtype=torch.float16) ** 3.3"),
    ("f16_rdiv_float", "r = 3.3 / tensor([2.25], dtype=f16)", "r = 3.3 / torch.tensor([2.25], dtype=torch.float16)"),
    ("f32_mul_float", "r = tensor([2.25, 1e-3, 7.]) * 3.3", "r = torch.tensor([2.25, 1e-3, 7.]) * 3.3"),
    ("i64_mul_float", "r = tensor([3, 7]) * 3.3", "r = torch.tensor([3, 7]) * 3.3"),
    ("i8_add_int", "r = tensor([100], dtype=i8) + 300", "r = torch.tensor([100], dtype=torch.int8) + 300"),
    ("i8_floordiv_int", "r = tensor([100], dtype=i8) // 300", "r = torch.tensor([100], dtype=torch.int8) // 300"),
    ("u8_mul_neg", "r = tensor([5], dtype=u8) * -1", "r = torch.tensor([5], dtype=torch.uint8) * -1"),
    ("u8_gt_neg", "r = tensor([5], dtype=u8) > -1", "r = torch.tensor([5], dtype=torch.uint8) > -1"),

    # ---- sort / argsort / topk ----
    ("sort_values", f"r = {X}.sort().values", f"r = {XT}.sort().values"),
    ("sort_indices", f"r = {X}.sort().indices", f"r = {XT}.sort().indices"),
    ("sort_dim0_desc", f"r = sort({X}, dim=0, descending=true)[0]", f"r = torch.sort({XT}, dim=0, descending=True)[0]"),
    ("sort_dim0_desc_idx", f"v, r = sort({X}, dim=0, descending=true)", f"v, r = torch.sort({XT}, dim=0, descending=True)"),
    ("sort_nan", "r = tensor([2., nan, -1., inf, nan, 0.]).sort().values", "r = torch.tensor([2., float('nan'), -1., float('inf'), float('nan'), 0.]).sort().values"),
    ("sort_nan_desc", "r = tensor([2., nan, -1., inf, 0.]).sort(descending=true).values", "r = torch.tensor([2., float('nan'), -1., float('inf'), 0.]).sort(descending=True).values"),
    ("sort_0d", "r = tensor(4.).sort().values", "r = torch.tensor(4.).sort().values"),
    ("sort_0d_idx", "r = tensor(4.).sort().indices", "r = torch.tensor(4.).sort().indices"),
    ("argsort", f"r = {X}.argsort(dim=0)", f"r = {XT}.argsort(dim=0)"),
    ("argsort_desc", "r = argsort(tensor([3, 9, 1, 4]), descending=true)", "r = torch.argsort(torch.tensor([3, 9, 1, 4]), descending=True)"),
    ("topk_values", f"r = {X}.topk(2).values", f"r = {XT}.topk(2).values"),
    ("topk_indices", f"r = {X}.topk(2).indices", f"r = {XT}.topk(2).indices"),
    ("topk_smallest_dim0", f"r = topk({X}, 1, dim=0, largest=false)[0]", f"r = torch.topk({XT}, 1, dim=0, largest=False)[0]"),
    ("topk_k0", f"r = {X}.topk(0).values", f"r = {XT}.topk(0).values"),

    # ---- median (lower median; NaN propagates) ----
    ("median_all_even", "r = tensor([4., 1., 3., 2.]).median()", "r = torch.tensor([4., 1., 3., 2.]).median()"),
    ("median_all_int", "r = tensor([[5, 1, 9], [2, 8, 7]]).median()", "r = torch.tensor([[5, 1, 9], [2, 8, 7]]).median()"),
    ("median_all_nan", "r = tensor([1., nan, 2.]).median()", "r = torch.tensor([1., float('nan'), 2.]).median()"),
    ("median_empty", "r = zeros(0).median()", "r = torch.zeros(0).median()"),
    ("median_dim1_values", f"r = {NANS}.median(1).values", f"r = {NANST}.median(1).values"),
    ("median_dim1_indices", f"r = {NANS}.median(1).indices", f"r = {NANST}.median(1).indices"),
    ("median_dim0_keep", f"r = {X}.median(0, keepdim=true).values", f"r = {XT}.median(0, keepdim=True).values"),
    ("median_dim0_keep_idx", f"r = {X}.median(dim=0, keepdim=true).indices", f"r = {XT}.median(dim=0, keepdim=True).indices"),

    # ---- gather / index_select / roll / flip / tile / broadcast_to ----
    ("gather_dim1", f"r = {X}.gather(1, tensor([[0, 0], [2, 1]]))", f"r = {XT}.gather(1, torch.tensor([[0, 0], [2, 1]]))"),
    ("gather_dim0", f"r = gather({X}, 0, tensor([[1, 0, 1]]))", f"r = torch.gather({XT}, 0, torch.tensor([[1, 0, 1]]))"),
    ("index_select_1", f"r = {X}.index_select(1, tensor([2, 0, 2]))", f"r = {XT}.index_select(1, torch.tensor([2, 0, 2]))"),
    ("index_select_0", f"r = index_select({X}, 0, tensor([1]))", f"r = torch.index_select({XT}, 0, torch.tensor([1]))"),
    ("roll_dim", f"r = {X}.roll(1, 1)", f"r = {XT}.roll(1, 1)"),
    ("roll_flat", f"r = {X}.roll(-2)", f"r = {XT}.roll(-2)"),
    ("roll_two", f"r = roll({X}, [1, 5], [0, 1])", f"r = torch.roll({XT}, [1, 5], [0, 1])"),
    ("flip", f"r = {X}.flip([0, 1])", f"r = {XT}.flip([0, 1])"),
    ("tile_short", f"r = {X}.tile([2])", f"r = {XT}.tile([2])"),
    ("tile_long", "r = tensor([1, 2]).tile([2, 1, 2])", "r = torch.tensor([1, 2]).tile([2, 1, 2])"),
    ("broadcast_to", "r = tensor([1., 2., 3.]).broadcast_to([2, 3])", "r = torch.tensor([1., 2., 3.]).broadcast_to([2, 3])"),
    ("broadcast_to_fn", "r = broadcast_to(tensor([[1], [2]]), [2, 4])", "r = torch.broadcast_to(torch.tensor([[1], [2]]), [2, 4])"),

    # ---- new_* / type_as ----
    ("new_zeros", "r = tensor([1, 2], dtype=i32).new_zeros(2, 3)", "r = torch.tensor([1, 2], dtype=torch.int32).new_zeros(2, 3)"),
    ("new_ones_dtype", "r = tensor([1., 2.]).new_ones([3], dtype=f64)", "r = torch.tensor([1., 2.]).new_ones([3], dtype=torch.float64)"),
    ("new_full", "r = tensor([1], dtype=bf16).new_full([2, 2], 3.3)", "r = torch.tensor([1], dtype=torch.bfloat16).new_full([2, 2], 3.3)"),
    ("new_tensor", "r = tensor([1.], dtype=f16).new_tensor([1, 2.5])", "r = torch.tensor([1.], dtype=torch.float16).new_tensor([1, 2.5])"),
    ("type_as", "r = tensor([1, 2]).type_as(tensor([0.5], dtype=f64))", "r = torch.tensor([1, 2]).type_as(torch.tensor([0.5], dtype=torch.float64))"),

    # ---- fmod / lerp ----
    ("fmod_float", "r = tensor([-3., 3.5, 5.3, -7.25]).fmod(-2)", "r = torch.tensor([-3., 3.5, 5.3, -7.25]).fmod(-2)"),
    ("fmod_int", "r = fmod(tensor([-3, 3, 7, -8]), tensor([2, -2, 3, 3]))", "r = torch.fmod(torch.tensor([-3, 3, 7, -8]), torch.tensor([2, -2, 3, 3]))"),
    ("fmod_bcast", "r = tensor([[5.5], [-5.5]]).fmod(tensor([2., 3.]))", "r = torch.tensor([[5.5], [-5.5]]).fmod(torch.tensor([2., 3.]))"),
    ("lerp_scalar_low", "r = tensor([1., 2., 3.]).lerp(tensor([10., 20., 30.]), 0.25)", "r = torch.tensor([1., 2., 3.]).lerp(torch.tensor([10., 20., 30.]), 0.25)"),
    ("lerp_scalar_high", "r = lerp(tensor([1., 2., 3.]), tensor([10., 20., 30.]), 0.7)", "r = torch.lerp(torch.tensor([1., 2., 3.]), torch.tensor([10., 20., 30.]), 0.7)"),
    ("lerp_tensor", "r = tensor([1., 2., 3.]).lerp(tensor([10., 20., 30.]), tensor([0.1, 0.5, 0.9]))", "r = torch.tensor([1., 2., 3.]).lerp(torch.tensor([10., 20., 30.]), torch.tensor([0.1, 0.5, 0.9]))"),

    # ---- isclose / allclose ----
    ("isclose_special", "r = isclose(tensor([1., nan, inf, -inf, 1e10, 1.]), tensor([1. + 1e-5, nan, inf, inf, 1.00001e10, 1.000001]))",
     "r = torch.isclose(torch.tensor([1., float('nan'), float('inf'), float('-inf'), 1e10, 1.]), torch.tensor([1. + 1e-5, float('nan'), float('inf'), float('inf'), 1.00001e10, 1.000001]))"),
    ("isclose_equal_nan", "r = tensor([1., nan]).isclose(tensor([1., nan]), equal_nan=true)", "r = torch.tensor([1., float('nan')]).isclose(torch.tensor([1., float('nan')]), equal_nan=True)"),
    ("isclose_f64", "r = tensor([1., 1.], dtype=f64).isclose(tensor([1. + 1e-5, 1. + 2e-5], dtype=f64))", "r = torch.tensor([1., 1.], dtype=torch.float64).isclose(torch.tensor([1. + 1e-5, 1. + 2e-5], dtype=torch.float64))"),
    ("isclose_int_rtol", "r = isclose(tensor([1, 2, 100]), tensor([1, 3, 101]), rtol=0.01, atol=0)", "r = torch.isclose(torch.tensor([1, 2, 100]), torch.tensor([1, 3, 101]), rtol=0.01, atol=0)"),
    ("isclose_bf16", "r = isclose(tensor([1., 100.], dtype=bf16), tensor([1.0078125, 100.5], dtype=bf16), rtol=1e-3)", "r = torch.isclose(torch.tensor([1., 100.], dtype=torch.bfloat16), torch.tensor([1.0078125, 100.5], dtype=torch.bfloat16), rtol=1e-3)"),
    ("isclose_bcast", "r = isclose(tensor([[1.], [2.]]), tensor([1., 2., 2.0000001]))", "r = torch.isclose(torch.tensor([[1.], [2.]]), torch.tensor([1., 2., 2.0000001]))"),
    ("allclose_true", "r = tensor(allclose(tensor([1., 2.]), tensor([1. + 1e-6, 2.])))", "r = torch.tensor(torch.allclose(torch.tensor([1., 2.]), torch.tensor([1. + 1e-6, 2.])))"),
    ("allclose_false", "r = tensor(tensor([1., 2.]).allclose(tensor([1.001, 2.])))", "r = torch.tensor(torch.tensor([1., 2.]).allclose(torch.tensor([1.001, 2.])))"),
    ("allclose_atol", "r = tensor(allclose(tensor([1., 2.]), tensor([1.001, 2.]), atol=0.01))", "r = torch.tensor(torch.allclose(torch.tensor([1., 2.]), torch.tensor([1.001, 2.]), atol=0.01))"),

    # ---- unique ----
    ("unique", "r = tensor([[3, 1], [2, 3], [1, 1]]).unique()", "r = torch.tensor([[3, 1], [2, 3], [1, 1]]).unique()"),
    ("unique_inverse", "v, r = unique(tensor([[3, 1], [2, 3], [1, 1]]), return_inverse=true)", "v, r = torch.unique(torch.tensor([[3, 1], [2, 3], [1, 1]]), return_inverse=True)"),
    ("unique_counts", "v, r = unique(tensor([3., 1., 2., 3., 1.]), return_counts=true)", "v, r = torch.unique(torch.tensor([3., 1., 2., 3., 1.]), return_counts=True)"),

    # ---- meshgrid / tensordot / kron ----
    ("meshgrid_ij_0", "r, b = meshgrid(tensor([1, 2, 3]), tensor([4, 5]))", "r, b = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing='ij')"),
    ("meshgrid_ij_1", "a, r = meshgrid([tensor([1, 2, 3]), tensor([4, 5])])", "a, r = torch.meshgrid([torch.tensor([1, 2, 3]), torch.tensor([4, 5])], indexing='ij')"),
    ("meshgrid_xy_0", "r, b, c = meshgrid(tensor([1, 2, 3]), tensor([4, 5]), tensor([6, 7, 8, 9]), indexing=\"xy\")", "r, b, c = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6, 7, 8, 9]), indexing='xy')"),
    ("meshgrid_xy_2", "a, b, r = meshgrid(tensor([1, 2, 3]), tensor([4, 5]), tensor([6, 7, 8, 9]), indexing=\"xy\")", "a, b, r = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6, 7, 8, 9]), indexing='xy')"),
    ("tensordot_int", "r = tensordot(arange(24.).reshape(2, 3, 4), arange(12.).reshape(3, 4), 2)", "r = torch.tensordot(torch.arange(24.).reshape(2, 3, 4), torch.arange(12.).reshape(3, 4), 2)"),
    ("tensordot_lists", "r = tensordot(arange(24.).reshape(2, 3, 4), arange(30.).reshape(5, 3, 2), [[1, 0], [1, 2]])", "r = torch.tensordot(torch.arange(24.).reshape(2, 3, 4), torch.arange(30.).reshape(5, 3, 2), [[1, 0], [1, 2]])"),
    ("tensordot_0", "r = tensordot(tensor([1., 2.]), tensor([3., 4., 5.]), 0)", "r = torch.tensordot(torch.tensor([1., 2.]), torch.tensor([3., 4., 5.]), 0)"),
    ("tensordot_full", "r = tensordot(arange(6.).reshape(2, 3), arange(6.).reshape(2, 3), 2)", "r = torch.tensordot(torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(2, 3), 2)"),
    ("kron_2d", "r = kron(tensor([[1, 2], [3, 4]]), tensor([[0, 1], [1, 0]]))", "r = torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, 1], [1, 0]]))"),
    ("kron_mixed_rank", "r = kron(tensor([1., 2.]), tensor([[1., 10.], [100., 1000.]]))", "r = torch.kron(torch.tensor([1., 2.]), torch.tensor([[1., 10.], [100., 1000.]]))"),

    # ---- gradients ----
    ("grad_sort", f"w = tensor({W}, requires_grad=true)\n(w.sort().values * tensor([1., 10., 100., 1000.])).sum().backward()\nr = w.grad",
     f"w = torch.tensor({W}, requires_grad=True)\n(w.sort().values * torch.tensor([1., 10., 100., 1000.])).sum().backward()\nr = w.grad"),
    ("grad_topk", f"w = tensor({W}, requires_grad=true)\n(w.topk(2).values * tensor([1., 10.])).sum().backward()\nr = w.grad",
     f"w = torch.tensor({W}, requires_grad=True)\n(w.topk(2).values * torch.tensor([1., 10.])).sum().backward()\nr = w.grad"),
    ("grad_median", f"w = tensor({W}, requires_grad=true)\nw.median().backward()\nr = w.grad",
     f"w = torch.tensor({W}, requires_grad=True)\nw.median().backward()\nr = w.grad"),
    ("grad_median_dim", "w = tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=true)\n(w.median(1).values * tensor([1., 10.])).sum().backward()\nr = w.grad",
     "w = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)\n(w.median(1).values * torch.tensor([1., 10.])).sum().backward()\nr = w.grad"),
    ("grad_gather_repeat", f"w = tensor({W}, requires_grad=true)\nw.gather(0, tensor([1, 1, 3])).sum().backward()\nr = w.grad",
     f"w = torch.tensor({W}, requires_grad=True)\nw.gather(0, torch.tensor([1, 1, 3])).sum().backward()\nr = w.grad"),
    ("grad_index_select", "w = tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=true)\n(w.index_select(0, tensor([2, 0, 2])) * tensor([[1., 2.], [3., 4.], [5., 6.]])).sum().backward()\nr = w.grad",
     "w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)\n(w.index_select(0, torch.tensor([2, 0, 2])) * torch.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum().backward()\nr = w.grad"),
    ("grad_roll", f"w = tensor({W}, requires_grad=true)\n(w.roll(1) * tensor([1., 10., 100., 1000.])).sum().backward()\nr = w.grad",
     f"w = torch.tensor({W}, requires_grad=True)\n(w.roll(1) * torch.tensor([1., 10., 100., 1000.])).sum().backward()\nr = w.grad"),
    ("grad_fmod_self", "w = tensor([5.5, -3.2], requires_grad=true)\nd = tensor([2., 1.5], requires_grad=true)\n(w.fmod(d) * tensor([1., 10.])).sum().backward()\nr = w.grad",
     "w = torch.tensor([5.5, -3.2], requires_grad=True)\nd = torch.tensor([2., 1.5], requires_grad=True)\n(w.fmod(d) * torch.tensor([1., 10.])).sum().backward()\nr = w.grad"),
    ("grad_fmod_other", "w = tensor([5.5, -3.2], requires_grad=true)\nd = tensor([2., 1.5], requires_grad=true)\n(w.fmod(d) * tensor([1., 10.])).sum().backward()\nr = d.grad",
     "w = torch.tensor([5.5, -3.2], requires_grad=True)\nd = torch.tensor([2., 1.5], requires_grad=True)\n(w.fmod(d) * torch.tensor([1., 10.])).sum().backward()\nr = d.grad"),
    ("grad_fmod_bcast_other", "w = tensor([[5.5, -3.2], [1., 7.]], requires_grad=true)\nd = tensor([2.], requires_grad=true)\nw.fmod(d).sum().backward()\nr = d.grad",
     "w = torch.tensor([[5.5, -3.2], [1., 7.]], requires_grad=True)\nd = torch.tensor([2.], requires_grad=True)\nw.fmod(d).sum().backward()\nr = d.grad"),
    ("grad_lerp_weight", "s = tensor([1., 2.], requires_grad=true)\nt = tensor([5., 3.], requires_grad=true)\nw = tensor([0.2, 0.8], requires_grad=true)\ns.lerp(t, w).sum().backward()\nr = stack([s.grad, t.grad, w.grad])",
     "s = torch.tensor([1., 2.], requires_grad=True)\nt = torch.tensor([5., 3.], requires_grad=True)\nw = torch.tensor([0.2, 0.8], requires_grad=True)\ns.lerp(t, w).sum().backward()\nr = torch.stack([s.grad, t.grad, w.grad])"),
    ("grad_tensordot", "a = arange(6.).reshape(2, 3).requires_grad_()\nb = arange(12.).reshape(3, 4).requires_grad_()\n(tensordot(a, b, 1) * arange(8.).reshape(2, 4)).sum().backward()\nr = a.grad",
     "a = torch.arange(6.).reshape(2, 3).requires_grad_()\nb = torch.arange(12.).reshape(3, 4).requires_grad_()\n(torch.tensordot(a, b, 1) * torch.arange(8.).reshape(2, 4)).sum().backward()\nr = a.grad"),
    ("grad_kron", "a = tensor([[1., 2.]], requires_grad=true)\nb = tensor([[3.], [4.]], requires_grad=true)\n(kron(a, b) * tensor([[1., 2.], [3., 4.]])).sum().backward()\nr = cat([a.grad.flatten(), b.grad.flatten()])",
     "a = torch.tensor([[1., 2.]], requires_grad=True)\nb = torch.tensor([[3.], [4.]], requires_grad=True)\n(torch.kron(a, b) * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()\nr = torch.cat([a.grad.flatten(), b.grad.flatten()])"),
]

DTYPES = {
    torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32", torch.float64: "f64",
    torch.int8: "i8", torch.uint8: "u8", torch.int16: "i16", torch.int32: "i32", torch.int64: "i64",
    torch.bool: "bool",
}


def main():
    out = []
    for name, tsr, src in CASES:
        env = {"torch": torch}
        exec(src, env)
        r = env["r"].detach()
        flat = r.reshape(-1)
        if r.dtype.is_floating_point:
            values = [repr(float(v)) for v in flat.double().tolist()]
        else:
            values = [str(v) for v in flat.tolist()]
        out.append({"name": name, "tsr": tsr, "torch": src, "dtype": DTYPES[r.dtype],
                    "shape": list(r.shape), "values": values})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "extra_golden.json")
    with open(path, "w") as f:
        json.dump({"generator": "gen_extra.py", "torch": torch.__version__, "cases": out}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
