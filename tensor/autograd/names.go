package autograd

import (
	"strings"
	"unicode"
)

// Node names follow PyTorch's grad_fn class names, which is what a user
// sees in print(loss): "MulBackward0", "SumBackward1", "MmBackward0". The
// default is the op name in CamelCase (a letter after a digit is upper case,
// as in PyTorch's "Log1PBackward0") with "Backward0"; nodeNames overrides
// ops whose PyTorch node differs from that (another formula, or one of
// several overloads), and nodeNameFns picks the overload from the inputs
// and attributes. The reference is PyTorch 1.13 (what bench/ and the golden
// files use); a test in names_test.go pins the table.

// nodeNames maps an op to its PyTorch node name where the default is wrong.
var nodeNames = map[string]string{
	"square":                  "PowBackward0", // torch.square is pow(x, 2)
	"clamp":                   "ClampBackward1",
	"masked_fill_tensor":      "MaskedFillBackward1",
	"outer":                   "MulBackward0", // outer is a broadcast multiply
	"contiguous":              "CloneBackward0",
	"to":                      "ToCopyBackward0",
	"max_all":                 "MaxBackward1",
	"min_all":                 "MinBackward1",
	"unflatten":               "ViewBackward0",
	"narrow":                  "SliceBackward0",
	"movedim":                 "PermuteBackward0",
	"norm":                    "LinalgVectorNormBackward0",
	"copy":                    "CopyBackwards",
	"fill":                    "FillBackward2",
	"linalg_inv":              "LinalgInvExBackward0",
	"linalg_cholesky":         "LinalgCholeskyExBackward0",
	"linalg_solve":            "LinalgSolveExBackward0",
	"linalg_solve_triangular": "LinalgSolveTriangularBackward0",
}

// nodeNameFns choose among an op's PyTorch overloads.
var nodeNameFns = map[string]func(inputs []*T, attrs Attrs) string{
	// sum() / sum(dim): SumBackward0 / SumBackward1, likewise mean, prod.
	"sum":  dimOverload("SumBackward"),
	"mean": dimOverload("MeanBackward"),
	"prod": dimOverload("ProdBackward"),
	// reshape is a view when it can be (ViewBackward0), else a copy then a
	// view (UnsafeViewBackward0); flatten is a reshape.
	"reshape": reshapeName,
	"flatten": reshapeName,
	// squeeze() / squeeze(dim)
	"squeeze": dimOverload("SqueezeBackward"),
	// x ** 2 (a number exponent) / x ** y, 2 ** x
	"pow": func(in []*T, _ Attrs) string {
		if len(in) == 2 && in[1] != nil && in[1].IsWrappedNumber() {
			return "PowBackward0"
		}
		return "PowBackward1"
	},
	// 1 - x is rsub
	"sub": func(in []*T, _ Attrs) string {
		if len(in) == 2 && in[0] != nil && in[0].IsWrappedNumber() {
			return "RsubBackward1"
		}
		return "SubBackward0"
	},
	// x % 2 / x % y (remainder.Scalar / remainder.Tensor); 2 % x is
	// remainder.Scalar_Tensor, which has no derivative in PyTorch
	"remainder": func(in []*T, _ Attrs) string {
		if len(in) == 2 && in[1] != nil && in[1].IsWrappedNumber() {
			return "RemainderBackward0"
		}
		if remainderScalarSelf(in) {
			return "NotImplemented"
		}
		return "RemainderBackward1"
	},
	// 2 / x is reciprocal(x) * 2
	"div": func(in []*T, _ Attrs) string {
		if len(in) == 2 && in[0] != nil && in[0].IsWrappedNumber() {
			return "MulBackward0"
		}
		return "DivBackward0"
	},
	// matmul dispatches on the operands' ranks (aten::matmul).
	"matmul": func(in []*T, _ Attrs) string {
		if len(in) != 2 || in[0] == nil || in[1] == nil {
			return "MatmulBackward0"
		}
		switch ra, rb := in[0].Dim(), in[1].Dim(); {
		case ra == 1 && rb == 1:
			return "DotBackward0"
		case ra == 2 && rb == 1:
			return "MvBackward0"
		case ra == 2 && rb == 2:
			return "MmBackward0"
		case ra == 1 && rb == 2:
			return "SqueezeBackward3" // unsqueeze(0), mm, squeeze(0)
		default:
			return "UnsafeViewBackward0" // batched: bmm of reshaped operands, then a view
		}
	},
}

func reshapeName(in []*T, _ Attrs) string {
	if len(in) == 1 && in[0] != nil && !in[0].IsContiguous() {
		return "UnsafeViewBackward0"
	}
	return "ViewBackward0"
}

// dimOverload is base+"0" without a "dim" attribute and base+"1" with one.
func dimOverload(base string) func([]*T, Attrs) string {
	return func(_ []*T, attrs Attrs) string {
		if _, ok := attrs["dim"]; ok {
			return base + "1"
		}
		return base + "0"
	}
}

// makeNodeName turns "log_softmax" into "LogSoftmaxBackward0" and "log1p"
// into "Log1PBackward0", or returns the op's entry in nodeNames.
func makeNodeName(name string) string {
	if n, ok := nodeNames[name]; ok {
		return n
	}
	var b strings.Builder
	up := true
	for _, r := range name {
		switch {
		case r == '_':
			up = true
			continue
		case up:
			r = unicode.ToUpper(r)
		}
		up = unicode.IsDigit(r)
		b.WriteRune(r)
	}
	return b.String() + "Backward0"
}

// nodeNameOf is the node name of one application of fn.
func nodeNameOf(fn *Function, inputs []*T, attrs Attrs) string {
	if f := nodeNameFns[fn.Name]; f != nil {
		return f(inputs, attrs)
	}
	return fn.nodeName()
}

// customNodeName normalises an ApplyCustom name: PyTorch's node names end
// in an overload number ("FlipBackward" becomes "FlipBackward0").
func customNodeName(name string) string {
	if strings.HasSuffix(name, "Backward") {
		return name + "0"
	}
	return name
}

// SetGradFnName renames the node that produced t (a composite op whose
// last recorded step is not what PyTorch records: mse_loss ends in a mean
// but prints MseLossBackward0). A leaf or untracked t is left alone.
func SetGradFnName(t *T, name string) {
	if n, ok := t.GradFn().(*Node); ok && n != nil {
		n.name = name
	}
}

// errRemainderScalarSelf is PyTorch's message for a backward through
// remainder with a number input (remainder.Scalar_Tensor, declared
// not_implemented).
const errRemainderScalarSelf = "derivative for aten::remainder is not implemented"

// remainderScalarSelf reports whether remainder's inputs are a number and
// a tensor (2 % x).
func remainderScalarSelf(in []*T) bool {
	return len(in) == 2 && in[0] != nil && in[0].IsWrappedNumber() && (in[1] == nil || !in[1].IsWrappedNumber())
}
