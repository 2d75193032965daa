#!/usr/bin/env python3
"""Generate stdlib/testdata/linalg_lu.json for stdlib/linalg_lu_test.go.

Golden values from PyTorch 1.13 for torch.linalg.lu_factor, lu_factor_ex,
lu, lu_solve, solve_ex, inv_ex, cholesky_ex, tensorinv, tensorsolve and the
top-level lu_unpack, cholesky_solve, cholesky_inverse and triangular_solve:
values, dtypes, shapes, gradients, grad_fn names and errors (see
gen_ops_more_torch.py for the case kinds). Test matrices have
well-separated pivots, so partial pivoting is deterministic. PyTorch
returns several of these results column-major; tsr returns them row-major,
so those cases end in .contiguous() (a no-op in tsr).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_linalg_lu.py
"""
import json
import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

warnings.filterwarnings("ignore")

EXTRA = ["lu_unpack", "cholesky_solve", "cholesky_inverse", "triangular_solve", "eye", "stack"]


def to_torch(src):
    return re.sub(r"(?<![\w.])linalg\.", "torch.linalg.", base_to_torch(src, EXTRA))


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1., dtype=f64).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad.contiguous()") for v in leaves]


SQ = "tensor([[1., 5., 2.], [4., 3., 7.], [2., 9., 1.]])"
WIDE = "tensor([[1., 2., 3., 4.], [5., 6., 7., 9.], [1., 1., 2., 1.]])"
TALL = "tensor([[1., 5., 1.], [2., 6., 1.], [3., 7., 2.], [4., 9., 1.]])"
BAT = "tensor([[[2., 1., 0.5], [0.3, 4., 1.], [1., -1., 3.]], [[1., 5., 2.], [4., 3., 7.], [2., 9., 1.]]], dtype=f64)"
SING = "tensor([[1., 2., 3.], [2., 4., 6.], [1., 1., 1.]])"
RHS = "tensor([[1., 2.], [3., 4.], [5., 6.]])"
RHSW = "tensor([[1., 2., 3.], [-1., 0.5, 2.]])"
SPD = "tensor([[4., 2., 0.6], [2., 5., 1.], [0.6, 1., 3.]])"
NPD = "tensor([[4., 2., 1.], [2., 1., 3.], [1., 3., 5.]])"
LOW = "tensor([[2., 0., 0.], [0.5, 3., 0.], [-1., 0.25, 1.5]])"
TRI = "tensor([[2., 1., -1.], [7., 3., 0.5], [-3., 9., 1.5]])"  # both triangles hold values

A64 = "a = tensor([[1., 5., 2.], [4., 3., 7.], [2., 9., 1.]], dtype=f64, requires_grad=true)"
W64 = "a = tensor([[1., 2., 3., 4.], [5., 6., 7., 9.], [1., 1., 2., 1.]], dtype=f64, requires_grad=true)"
T64 = "a = tensor([[1., 5., 1.], [2., 6., 1.], [3., 7., 2.], [4., 9., 1.]], dtype=f64, requires_grad=true)"
B64 = "b = tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=f64, requires_grad=true)"
BW64 = "b = tensor([[1., 2., 3.], [-1., 0.5, 2.]], dtype=f64, requires_grad=true)"
L64 = "l = tensor([[2., 0., 0.], [0.5, 3., 0.], [-1., 0.25, 1.5]], dtype=f64, requires_grad=true)"
U64 = "l = tensor([[2., 0.5, -1.], [0., 3., 0.25], [0., 0., 1.5]], dtype=f64, requires_grad=true)"
TR64 = "a = tensor([[2., 1., -1.], [7., 3., 0.5], [-3., 9., 1.5]], dtype=f64, requires_grad=true)"
S64 = "a = tensor([[4., 2., 0.6], [2., 5., 1.], [0.6, 1., 3.]], dtype=f64, requires_grad=true)"

CASES = [
    # ---- lu_factor, lu_factor_ex ----
    ("lu_factor_sq", f"r = linalg.lu_factor({SQ}).LU.contiguous()"),
    ("lu_factor_sq_piv", f"r = linalg.lu_factor({SQ}).pivots"),
    ("lu_factor_wide", f"r = linalg.lu_factor({WIDE}).LU.contiguous()"),
    ("lu_factor_wide_piv", f"r = linalg.lu_factor({WIDE})[1]"),
    ("lu_factor_tall", f"r = linalg.lu_factor({TALL}).LU.contiguous()"),
    ("lu_factor_tall_piv", f"r = linalg.lu_factor({TALL}).pivots"),
    ("lu_factor_batch", f"r = linalg.lu_factor({BAT}).LU.contiguous()"),
    ("lu_factor_batch_piv", f"r = linalg.lu_factor({BAT}).pivots"),
    ("lu_factor_empty", "r = linalg.lu_factor(zeros(0, 3)).pivots"),
    ("lu_factor_ex_sing", f"r = linalg.lu_factor_ex({SING}).LU.contiguous()"),
    ("lu_factor_ex_sing_info", f"r = linalg.lu_factor_ex({SING}).info"),
    ("lu_factor_ex_ok_info", f"r = linalg.lu_factor_ex({BAT}).info"),
    ("lu_factor_ex_piv", f"r = linalg.lu_factor_ex({SING}, pivot=true).pivots"),
    # ---- lu, lu_unpack ----
    *[(f"lu_{nm}_{f}", f"r = linalg.lu({m}).{f}") for nm, m in (("sq", SQ), ("wide", WIDE), ("tall", TALL), ("batch", BAT))
      for f in ("P", "L", "U")],
    *[(f"lu_unpack_{nm}_{f}", f"q = linalg.lu_factor({m})\nr = lu_unpack(q.LU, q.pivots).{f}")
      for nm, m in (("sq", SQ), ("tall", TALL), ("batch", BAT)) for f in ("P", "L", "U")],
    ("lu_unpack_nodata", f"q = linalg.lu_factor({SQ})\nr = lu_unpack(q.LU, q.pivots, unpack_data=false).L"),
    ("lu_unpack_nopiv", f"q = linalg.lu_factor({SQ})\nr = lu_unpack(q.LU, q.pivots, unpack_pivots=false).P"),
    # ---- lu_solve ----
    ("lu_solve", f"q = linalg.lu_factor({SQ})\nr = linalg.lu_solve(q.LU, q.pivots, {RHS}).contiguous()"),
    ("lu_solve_adj", f"q = linalg.lu_factor({SQ})\nr = linalg.lu_solve(q.LU, q.pivots, {RHS}, adjoint=true).contiguous()"),
    ("lu_solve_right", f"q = linalg.lu_factor({SQ})\nr = linalg.lu_solve(q.LU, q.pivots, {RHSW}, left=false).contiguous()"),
    ("lu_solve_right_adj", f"q = linalg.lu_factor({SQ})\nr = linalg.lu_solve(q.LU, q.pivots, {RHSW}, left=false, adjoint=true).contiguous()"),
    ("lu_solve_batch_bcast", f"q = linalg.lu_factor({BAT})\nr = linalg.lu_solve(q.LU, q.pivots, {RHS}.to(f64)).contiguous()"),
    # ---- solve_ex, inv_ex, cholesky_ex ----
    ("solve_ex", f"r = linalg.solve_ex({SQ}, {RHS}).result.contiguous()"),
    ("solve_ex_info", f"r = linalg.solve_ex({SQ}, {RHS}).info"),
    ("solve_ex_vec", f"r = linalg.solve_ex({BAT}, tensor([1., -2., 0.5], dtype=f64)).result.contiguous()"),
    ("solve_ex_left", f"r = linalg.solve_ex({SQ}, {RHSW}, left=false).result.contiguous()"),
    ("solve_ex_sing_info", f"r = linalg.solve_ex(stack([{SQ}, {SING}]), {RHS}).info"),
    ("solve_ex_info_shape", f"r = linalg.solve_ex({SING}, zeros(2, 3, 2)).info"),
    ("inv_ex", f"r = linalg.inv_ex({SQ}).inverse.contiguous()"),
    ("inv_ex_info", f"r = linalg.inv_ex(stack([{SING}, {SQ}])).info"),
    ("cholesky_ex", f"r = linalg.cholesky_ex({SPD}).L.contiguous()"),
    ("cholesky_ex_upper", f"r = linalg.cholesky_ex({SPD}, upper=true).L.contiguous()"),
    ("cholesky_ex_info", f"r = linalg.cholesky_ex(stack([{SPD}, {NPD}])).info"),
    ("cholesky_ex_partial", f"r = linalg.cholesky_ex({NPD}).L.contiguous()"),
    ("cholesky_ex_partial_upper", f"r = linalg.cholesky_ex({NPD}, upper=true).L.contiguous()"),
    # ---- tensorinv, tensorsolve ----
    ("tensorinv", f"r = linalg.tensorinv({SQ}.reshape(3, 3, 1), ind=1).contiguous()"),
    ("tensorinv_ind2", "r = linalg.tensorinv(tensor([[2., 1., 0.5, 0.], [0.3, 4., 1., -1.], [1., -1., 3., 0.2], [0., 0.5, 0.1, 2.]]).reshape(2, 2, 4)).contiguous()"),
    ("tensorsolve", f"r = linalg.tensorsolve({SQ}.reshape(3, 3, 1), tensor([1., 2., 3.]))"),
    ("tensorsolve_dims", "r = linalg.tensorsolve(tensor([[2., 1., 0.5, 0.], [0.3, 4., 1., -1.], [1., -1., 3., 0.2], [0., 0.5, 0.1, 2.]]).reshape(2, 2, 2, 2), tensor([[1., 2.], [3., 4.]]), dims=[0])"),
    # ---- cholesky_solve, cholesky_inverse ----
    ("cholesky_solve", f"r = cholesky_solve({RHS}, {LOW}).contiguous()"),
    ("cholesky_solve_upper", f"r = cholesky_solve({RHS}, {LOW}.mT, upper=true).contiguous()"),
    ("cholesky_solve_reads_triangle", f"r = cholesky_solve({RHS}, {TRI}).contiguous()"),
    ("cholesky_solve_bcast", f"r = cholesky_solve(stack([{RHS}, -{RHS}]), {LOW}).contiguous()"),
    ("cholesky_inverse", f"r = cholesky_inverse({LOW}).contiguous()"),
    ("cholesky_inverse_upper", f"r = cholesky_inverse({LOW}.mT, upper=true).contiguous()"),
    ("cholesky_inverse_f64", f"r = cholesky_inverse({LOW}.to(f64)).contiguous()"),
    # ---- triangular_solve ----
    ("trisolve", f"r = triangular_solve({RHS}, {TRI}).solution.contiguous()"),
    ("trisolve_lower", f"r = triangular_solve({RHS}, {TRI}, upper=false).solution.contiguous()"),
    ("trisolve_t", f"r = triangular_solve({RHS}, {TRI}, transpose=true).solution.contiguous()"),
    ("trisolve_lower_t_unit", f"r = triangular_solve({RHS}, {TRI}, false, true, true).solution.contiguous()"),
    ("trisolve_unit", f"r = triangular_solve({RHS}, {TRI}, unitriangular=true).solution.contiguous()"),
    ("trisolve_clone", f"r = triangular_solve(stack([{RHS}, {RHS}]), {TRI}).cloned_coefficient.contiguous()"),
    # ---- gradients ----
    *grad("lu_factor_sq", A64, "linalg.lu_factor(a).LU", ("a",)),
    *grad("lu_factor_wide", W64, "linalg.lu_factor(a).LU", ("a",)),
    *grad("lu_factor_tall", T64, "linalg.lu_factor(a).LU", ("a",)),
    *grad("lu_L", A64, "linalg.lu(a).L", ("a",)),
    *grad("lu_U_wide", W64, "linalg.lu(a).U", ("a",)),
    *grad("lu_LU_tall", T64, "linalg.lu(a).L @ linalg.lu(a).U[:, :2]", ("a",)),
    *grad("lu_unpack", A64, "lu_unpack(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots).U", ("a",)),
    *grad("lu_solve", f"{A64}\n{B64}", "linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, b)", ("a", "b")),
    *grad("lu_solve_adj", f"{A64}\n{B64}", "linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, b, adjoint=true)", ("a", "b")),
    *grad("lu_solve_right", f"{A64}\n{BW64}", "linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, b, left=false)", ("a", "b")),
    *grad("lu_solve_right_adj", f"{A64}\n{BW64}", "linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, b, left=false, adjoint=true)", ("a", "b")),
    *grad("solve_ex", f"{A64}\n{B64}", "linalg.solve_ex(a, b).result", ("a", "b")),
    *grad("inv_ex", A64, "linalg.inv_ex(a).inverse", ("a",)),
    *grad("cholesky_ex", S64, "linalg.cholesky_ex(a).L", ("a",)),
    *grad("cholesky_solve", f"{L64}\n{B64}", "cholesky_solve(b, l)", ("l", "b")),
    *grad("cholesky_solve_upper", f"{U64}\n{B64}", "cholesky_solve(b, l, upper=true)", ("l", "b")),
    *grad("cholesky_inverse", L64, "cholesky_inverse(l)", ("l",)),
    *grad("cholesky_inverse_upper", U64, "cholesky_inverse(l, true)", ("l",)),
    *grad("trisolve", f"{TR64}\n{B64}", "triangular_solve(b, a).solution", ("a", "b")),
    *grad("trisolve_t_unit", f"{TR64}\n{B64}", "triangular_solve(b, a, false, true, true).solution", ("a", "b")),
    *grad("trisolve_clone", f"{TR64}\n{B64}", "triangular_solve(b, a).cloned_coefficient", ("a",)),
    *grad("tensorinv", A64, "linalg.tensorinv(a.reshape(3, 3, 1), ind=1)", ("a",)),
    *grad("tensorsolve", f"{A64}\n{B64}", "linalg.tensorsolve(a, b[:, 0])", ("a", "b")),
]

GRADFN = [
    ("lu_factor", f"{A64}\nr = linalg.lu_factor(a).LU"),
    ("lu_factor_ex", f"{A64}\nr = linalg.lu_factor_ex(a).LU"),
    ("lu_L", f"{A64}\nr = linalg.lu(a).L"),
    ("lu_U", f"{A64}\nr = linalg.lu(a).U"),
    ("lu_unpack", f"{A64}\nr = lu_unpack(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots).L"),
    ("lu_solve", f"{A64}\nr = linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, ones(3, 1, dtype=f64))"),
    ("solve_ex", f"{A64}\nr = linalg.solve_ex(a, ones(3, dtype=f64)).result"),
    ("inv_ex", f"{A64}\nr = linalg.inv_ex(a).inverse"),
    ("cholesky_ex", f"{S64}\nr = linalg.cholesky_ex(a).L"),
    ("cholesky_solve", f"{L64}\nr = cholesky_solve(ones(3, 1, dtype=f64), l)"),
    ("cholesky_inverse", f"{L64}\nr = cholesky_inverse(l)"),
    ("trisolve", f"{TR64}\nr = triangular_solve(ones(3, 1, dtype=f64), a).solution"),
    ("trisolve_clone", f"{TR64}\nr = triangular_solve(ones(3, 1, dtype=f64), a).cloned_coefficient"),
]

ERRORS = [
    ("lu_factor_nopivot", f"linalg.lu_factor({SQ}, pivot=false)", True),
    ("lu_nopivot", f"linalg.lu({SQ}, pivot=false)", True),
    ("lu_factor_singular", "linalg.lu_factor(zeros(3, 3))", True),
    ("lu_factor_singular_batch", "linalg.lu_factor(zeros(2, 3, 3))", True),
    ("lu_factor_ex_check", f"linalg.lu_factor_ex({SING}, check_errors=true)", True),
    ("lu_factor_rank", "linalg.lu_factor(zeros(3))", True),
    ("lu_rank", "linalg.lu(zeros(3))", True),
    ("lu_factor_int", "linalg.lu_factor(zeros(3, 3, dtype=i64))", True),
    ("lu_solve_shape", f"q = linalg.lu_factor({SQ})\nlinalg.lu_solve(q.LU, q.pivots, zeros(4, 2))", True),
    ("lu_solve_shape_right", f"q = linalg.lu_factor({SQ})\nlinalg.lu_solve(q.LU, q.pivots, zeros(3, 2), left=false)", True),
    ("lu_solve_vector", f"q = linalg.lu_factor({SQ})\nlinalg.lu_solve(q.LU, q.pivots, zeros(3))", True),
    ("lu_solve_pivots_dtype", f"q = linalg.lu_factor({SQ})\nlinalg.lu_solve(q.LU, q.pivots.long(), zeros(3, 2))", True),
    ("lu_solve_dtype", f"q = linalg.lu_factor({SQ})\nlinalg.lu_solve(q.LU, q.pivots, zeros(3, 2, dtype=f64))", True),
    ("lu_solve_square", f"q = linalg.lu_factor({SQ})\nlinalg.lu_solve(q.LU[:2], q.pivots, zeros(3, 2))", True),
    ("lu_unpack_pivots_range", f"q = linalg.lu_factor({SQ})\nlu_unpack(q.LU, tensor([4, 1, 1], dtype=i32))", True),
    ("lu_unpack_pivots_dtype", f"q = linalg.lu_factor({SQ})\nlu_unpack(q.LU, q.pivots.long())", False),
    ("solve_ex_check", f"linalg.solve_ex(zeros(2, 3, 3), zeros(2, 3, 2), check_errors=true)", True),
    ("solve_ex_check_single", f"linalg.solve_ex({SING}, {RHS}, check_errors=true)", True),
    ("inv_ex_check", "linalg.inv_ex(zeros(2, 3, 3), check_errors=true)", True),
    ("inv_ex_square", "linalg.inv_ex(zeros(3, 2))", True),
    ("cholesky_ex_check", f"linalg.cholesky_ex({NPD}, check_errors=true)", True),
    ("cholesky_ex_check_batch", "linalg.cholesky_ex(zeros(2, 3, 3), check_errors=true)", True),
    ("tensorinv_shape", "linalg.tensorinv(zeros(4, 6, 8, 4))", True),
    ("tensorinv_ind", "linalg.tensorinv(zeros(4, 6, 8, 3), ind=0)", True),
    # PyTorch names the op "inv" here
    ("tensorinv_singular", "linalg.tensorinv(zeros(2, 2, 4))", False),
    ("tensorsolve_shape", "linalg.tensorsolve(zeros(2, 3, 6), zeros(6))", True),
    ("cholesky_solve_rank", f"cholesky_solve(zeros(3), {LOW})", True),
    ("cholesky_solve_shape", f"cholesky_solve(zeros(4, 2), {LOW})", True),
    ("cholesky_inverse_rank", "cholesky_inverse(zeros(3))", True),
    ("cholesky_inverse_square", "cholesky_inverse(zeros(2, 3))", True),
    ("cholesky_inverse_singular", "cholesky_inverse(zeros(2, 3, 3))", True),
    ("trisolve_shape", f"triangular_solve(zeros(4, 2), {TRI})", True),
    ("trisolve_rank", f"triangular_solve(zeros(3), {TRI})", True),
]


def main():
    write_golden("linalg_lu.json", "gen_linalg_lu.py", CASES, GRADFN, ERRORS, to_torch=to_torch)
    # torch.linalg.LinAlgError's class is named _LinAlgError; tsr's kind is LinAlgError
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linalg_lu.json")
    with open(path) as f:
        golden = json.load(f)
    for e in golden["errors"]:
        e["kind"] = {"_LinAlgError": "LinAlgError"}.get(e["kind"], e["kind"])
    with open(path, "w") as f:
        json.dump(golden, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
