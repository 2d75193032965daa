package stdlib

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// attentionFusions counts the attention idioms run fused (for tests).
var attentionFusions atomic.Int64

// attentionHook is installed as Thread.Attention: it runs the attention
// idiom the compiler found (runtime.ATTN; lang/attn.go),
//
//	ein"<P>id,<P>jd-><P>ij"(a, b) [* s | / s] → softmax(·, dim=-1) → ein"<P>ij,<P>je-><P>ie"(·, c)
//
// or with a @ b.transpose(-2, -1) (b.mT, b.T of a matrix) for the scores
// and p @ c for the output,
//
// as tensor.SoftmaxAttention when that gives exactly what the unfused
// calls give: softmax is the builtin (global or nn.softmax, or the tensor
// method), the equations have that structure (any letters, the same
// batch letters in every operand, no ellipsis, repeated or summed-out
// letters; a transpose of the last two dims), a, b and c are float32 or
// float64 tensors of one dtype with identical batch shapes and no
// gradient to record, s is a number that folds into the scores GEMM as
// its scale (foldScale: the unfused code's epilogue), and the scores'
// last dim (-1 or its index) is softmax's dim. Anything else declines,
// and the code as written runs.
func attentionHook(th *runtime.Thread, ops []runtime.Value) (res runtime.Value, ok bool) {
	desc, _ := ops[0].(runtime.Tuple)
	if len(desc) != 3 {
		return nil, false
	}
	eqS, _ := desc[0].(runtime.String)
	eqO, _ := desc[1].(runtime.String)
	flags, _ := desc[2].(runtime.Int)
	at, okA := ops[1].(*TensorValue)
	bt, okB := ops[2].(*TensorValue)
	ct, okC := ops[6].(*TensorValue)
	if !okA || !okB || !okC {
		return nil, false
	}
	if flags&runtime.AttnMethodSoftmax == 0 && !isSoftmaxBuiltin(ops[4]) {
		return nil, false
	}
	a, b, c := at.t, bt.t, ct.t
	dt := a.DType()
	eng := engineOf(th)
	if dt != tensor.F32 && dt != tensor.F64 || b.DType() != dt || c.DType() != dt ||
		eng.GradEnabled() && (a.RequiresGrad() || b.RequiresGrad() || c.RequiresGrad()) {
		return nil, false
	}
	nd := a.Dim()
	if nd < 2 || b.Dim() != nd || c.Dim() != nd || !attnEquations(string(eqS), string(eqO), nd) {
		return nil, false
	}
	// Size-1 dims change the einsum's plan (squeezed operands, products
	// without a sum, matrix-vector steps) and with it the rounding.
	sh := [][]int{a.Shape(), b.Shape(), c.Shape()}
	for _, s := range sh {
		for _, n := range s[nd-2:] {
			if n < 2 {
				return nil, false
			}
		}
	}
	d, isInt := ops[5].(runtime.Int)
	if !isInt || int(d) != -1 && int(d) != nd-1 {
		return nil, false
	}
	alpha := 1.0
	if op := runtime.Op(flags &^ runtime.AttnMethodSoftmax); op != 0 {
		var folds bool
		if alpha, folds = foldScale(op, ops[3], dt); !folds {
			return nil, false
		}
	}
	r, handled := fusedAttention(a, b, c, alpha)
	if !handled {
		return nil, false
	}
	attentionFusions.Add(1)
	return NewTensorValue(th, r), true
}

// fusedAttention is tensor.SoftmaxAttention declining when it runs out
// of memory: the unfused code then reports the MemoryError where it
// happens.
func fusedAttention(a, b, c *T, alpha float64) (r *T, handled bool) {
	var err error
	defer func() {
		if err != nil {
			r, handled = nil, false
		}
	}()
	defer runtime.RecoverMemoryError(&err)
	return tensor.SoftmaxAttention(a, b, c, alpha)
}

// isSoftmaxBuiltin reports whether f is the softmax builtin or nn.softmax.
func isSoftmaxBuiltin(f runtime.Value) bool {
	if f == globals["softmax"] {
		return true
	}
	if m := modules["nn"]; m != nil && f == m.Members["softmax"] {
		return true
	}
	return false
}

// attnEquations reports whether the scores and output products have the
// attention structure for operands of nd dims: scores "Pid,Pjd->Pij" or
// a @ bᵀ ("@T<d0>,<d1>" swapping the last two dims, or "@Tall", .T of a
// matrix), and output "Qij,Qje->Qie" or p @ c ("@"), with len(P) ==
// len(Q) == nd-2, distinct letters in each operand and P, i, j, d (and Q,
// i, j, e) distinct.
func attnEquations(eqS, eqO string, nd int) bool {
	return attnScoresEq(eqS, nd) && attnOutputEq(eqO, nd)
}

func attnScoresEq(eq string, nd int) bool {
	if t, ok := strings.CutPrefix(eq, "@T"); ok {
		if t == "all" {
			return nd == 2
		}
		s0, s1, ok := strings.Cut(t, ",")
		d0, err0 := strconv.Atoi(s0)
		d1, err1 := strconv.Atoi(s1)
		if !ok || err0 != nil || err1 != nil || d0 < -nd || d0 >= nd || d1 < -nd || d1 >= nd {
			return false
		}
		d0, d1 = (d0+nd)%nd, (d1+nd)%nd
		return min(d0, d1) == nd-2 && max(d0, d1) == nd-1
	}
	sa, sb, so, ok := split2(eq)
	if !ok || !attnSubscripts(nd, sa, sb, so) {
		return false
	}
	// a = P i d, b = P j d, out = P i j
	nb := nd - 2
	P, i, j, d := sa[:nb], sa[nb], sb[nb], sa[nb+1]
	return sb[:nb] == P && sb[nb+1] == d && so == P+string(i)+string(j) && distinctLetters(P+string(i)+string(j)+string(d))
}

func attnOutputEq(eq string, nd int) bool {
	if eq == "@" {
		return true
	}
	pa, pb, po, ok := split2(eq)
	if !ok || !attnSubscripts(nd, pa, pb, po) {
		return false
	}
	// p = Q x y, c = Q y z, out = Q x z
	nb := nd - 2
	Q, x, y, z := pa[:nb], pa[nb], pa[nb+1], pb[nb+1]
	return pb[:nb] == Q && pb[nb] == y && po == Q+string(x)+string(z) && distinctLetters(Q+string(x)+string(y)+string(z))
}

// attnSubscripts reports whether every subscript has nd distinct letters.
func attnSubscripts(nd int, subs ...string) bool {
	for _, s := range subs {
		if len(s) != nd || !distinctLetters(s) {
			return false
		}
	}
	return true
}

// split2 splits "x,y->z" (spaces removed) into its three subscripts; it
// fails on anything else (more operands, an implicit output, ellipses).
func split2(eq string) (x, y, z string, ok bool) {
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, out, found := strings.Cut(eq, "->")
	if !found {
		return "", "", "", false
	}
	x, y, found = strings.Cut(lhs, ",")
	if !found || strings.Contains(y, ",") {
		return "", "", "", false
	}
	return x, y, out, true
}

// distinctLetters reports whether s holds only ASCII letters, none twice.
func distinctLetters(s string) bool {
	var seen [128]bool
	for _, r := range s {
		if r >= 128 || !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') || seen[r] {
			return false
		}
		seen[r] = true
	}
	return true
}
