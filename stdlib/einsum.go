package stdlib

import (
	"errors"
	"math"
	"sync/atomic"

	"github.com/tsrlang/tsr/einsum"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// einsum(eq, *operands), the ein"..." literal call and einsum_path.

func init() {
	defGlobal("einsum", "einsum(equation, *operands): Einstein summation (differentiable); operands may also be given as one list.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if len(args) == 0 {
			return nil, runtime.Errorf("TypeError", "einsum() missing required argument 'equation'")
		}
		eq, ok := args[0].(runtime.String)
		if !ok {
			if e, ok := args[0].(*runtime.Einsum); ok {
				eq = runtime.String(e.Equation)
			} else {
				return nil, runtime.Errorf("TypeError", "einsum(): argument 'equation' must be str, not %s", args[0].Type())
			}
		}
		ops := args[1:]
		if len(ops) == 1 {
			switch l := ops[0].(type) {
			case *runtime.List:
				ops = l.Elems
			case runtime.Tuple:
				ops = l
			}
		}
		return einsumCall(th, string(eq), ops, kwargs)
	})
	defGlobal("einsum_path", "einsum_path(equation, *shapes): the contraction order chosen for operands of these shapes, with its FLOP count and the naive FLOP count; prints as a report.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if len(kwargs) > 0 {
			return nil, runtime.Errorf("TypeError", "einsum_path() got an unexpected keyword argument '%s'", kwargs[0].Name)
		}
		if len(args) == 0 {
			return nil, runtime.Errorf("TypeError", "einsum_path() missing required argument 'equation'")
		}
		eq, ok := args[0].(runtime.String)
		if !ok {
			return nil, runtime.Errorf("TypeError", "einsum_path(): argument 'equation' must be str, not %s", args[0].Type())
		}
		shapes := make([][]int, len(args)-1)
		for i, a := range args[1:] {
			if x, ok := a.(*TensorValue); ok {
				shapes[i] = x.t.Shape()
				continue
			}
			s, ok := runtime.AsInts(a)
			if !ok {
				return nil, runtime.Errorf("TypeError", "einsum_path(): operand %d must be a shape (list of ints) or a tensor, not %s", i, a.Type())
			}
			shapes[i] = s
		}
		plan, err := einsum.PlanFor(string(eq), shapes, "")
		if err != nil {
			return nil, einsumErr(err)
		}
		path := make([]runtime.Value, len(plan.Path))
		for i, p := range plan.Path {
			path[i] = intTuple(p)
		}
		r := newRecord("einsum_path").
			set("path", runtime.NewList(path)).
			set("flops", runtime.MakeInt(int64(plan.FLOPs))).
			set("naive_flops", runtime.MakeInt(int64(plan.NaiveFLOPs))).
			set("speedup", runtime.Float(plan.Speedup())).
			set("optimizer", runtime.String(plan.Optimizer)).
			set("report", runtime.String(plan.Report()))
		return &einsumPathValue{record: r, report: plan.Report()}, nil
	})
}

// einsumPathValue is einsum_path's result: fields path, flops,
// naive_flops, speedup, optimizer and report; it prints as the report.
type einsumPathValue struct {
	*record
	report string
}

func (p *einsumPathValue) String() string { return p.report }

// einsumHook is installed as Thread.Einsum: the call of an ein"..." literal.
func einsumHook(th *runtime.Thread, eq string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return einsumCall(th, eq, args, kwargs)
}

func einsumCall(th *runtime.Thread, eq string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	ops, err := einsumOperands(args, kwargs)
	if err != nil {
		return nil, err
	}
	r, err := autograd.Einsum(engineOf(th), eq, ops)
	if err != nil {
		return nil, einsumErr(err)
	}
	return einsumResult(th, r), nil
}

// einsumOperands checks an einsum call's arguments: tensors, no keywords.
func einsumOperands(args []runtime.Value, kwargs []runtime.Kwarg) ([]*T, error) {
	if len(kwargs) > 0 {
		return nil, runtime.Errorf("TypeError", "einsum() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	if len(args) == 0 {
		return nil, runtime.Errorf("RuntimeError", "einsum(): must provide at least one operand")
	}
	ops := make([]*T, len(args))
	for i, a := range args {
		x, ok := a.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "einsum(): operand %d must be a tensor, not %s", i, a.Type())
		}
		ops[i] = x.t
	}
	return ops, nil
}

// einsumResult wraps an einsum result. PyTorch's einsum reshapes its bmm
// result: a contraction ends in a view.
func einsumResult(th *runtime.Thread, r *T) *TensorValue {
	switch autograd.GradFnName(r) {
	case "MmBackward0", "BmmBackward0", "DotBackward0", "MvBackward0", "UnsafeViewBackward0", "SqueezeBackward3":
		autograd.SetGradFnName(r, "ViewBackward0")
	}
	return NewTensorValue(th, r)
}

// einsumDeferredHook is installed as Thread.EinsumDeferred: the call of
// an ein"..." literal under * or / by a side-effect-free operand
// (`ein"bhid,bhjd->bhij"(q, k) * scale`). When the contraction could take
// a number as its GEMM's epilogue scale (operands of one float32/float64
// dtype, no gradient to record), it checks the call as einsumCall does
// (the same errors, raised here) and returns a pendingEinsum for the
// operator; otherwise it is einsumCall.
func einsumDeferredHook(th *runtime.Thread, eq string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	ops, err := einsumOperands(args, kwargs)
	if err != nil {
		return nil, err
	}
	eng := engineOf(th)
	dt := ops[0].DType()
	shapes := make([][]int, len(ops))
	for i, x := range ops {
		if x.DType() != dt || dt != tensor.F32 && dt != tensor.F64 || eng.GradEnabled() && x.RequiresGrad() {
			return einsumCall(th, eq, args, kwargs)
		}
		shapes[i] = x.Shape()
	}
	if _, err := einsum.PlanFor(eq, shapes, ""); err != nil {
		return nil, einsumErr(err)
	}
	return &pendingEinsum{th: th, eq: eq, ops: ops}, nil
}

// scaleFolds counts the scales folded into a contraction (for tests).
var scaleFolds atomic.Int64

// pendingEinsum is a checked einsum call whose contraction runs when the
// BINARY_TMP consuming it has the other operand (see runtime.FRESH_MARK):
// x * s and x / s with a number s fold s into the last GEMM
// (autograd.EinsumScaled), one pass over the result instead of two; any
// other operand gets the finished contraction and the usual operator. The
// VM never lets anything else see it.
type pendingEinsum struct {
	th  *runtime.Thread
	eq  string
	ops []*T
}

func (p *pendingEinsum) String() string { return "<pending einsum " + p.eq + ">" }
func (p *pendingEinsum) Type() string   { return "tensor" }
func (p *pendingEinsum) Truth() bool    { return true }

// BinaryTemp runs the contraction and returns x op y, exactly what the
// undeferred call followed by the operator returns.
func (p *pendingEinsum) BinaryTemp(op runtime.Op, y runtime.Value, after int64) (runtime.Value, error) {
	eng := engineOf(p.th)
	var r *T
	var err error
	if alpha, ok := foldScale(op, y, p.ops[0].DType()); ok {
		var applied bool
		if r, applied, err = autograd.EinsumScaled(eng, p.eq, p.ops, alpha); err != nil {
			return nil, einsumErr(err)
		}
		if applied {
			scaleFolds.Add(1)
			return einsumResult(p.th, r), nil
		}
	} else if r, err = autograd.Einsum(eng, p.eq, p.ops); err != nil {
		return nil, einsumErr(err)
	}
	x := einsumResult(p.th, r)
	z, err := x.BinaryTemp(op, y, after)
	if z != nil || err != nil {
		return z, err
	}
	return runtime.Binary(op, x, y)
}

// foldScale returns the factor that x op y applies to a float tensor x of
// dtype dt when y is a number: y for *, 1/y for / when that is exact (y a
// power of two whose reciprocal is a normal number of dt), so that
// product*alpha rounds as the operator would. y is rounded to dt first,
// as the operator rounds a wrapped number; a non-finite factor is not
// folded.
func foldScale(op runtime.Op, y runtime.Value, dt tensor.DType) (float64, bool) {
	var w *T
	switch v := y.(type) {
	case runtime.Int:
		w = tensor.ScalarInt(int64(v))
	case runtime.Float:
		w = tensor.ScalarFloat(float64(v))
	default:
		return 0, false
	}
	c := roundWrapped(w, dt).FlatFloat64(0)
	if dt == tensor.F32 {
		c = float64(float32(c))
	}
	if math.IsInf(c, 0) || math.IsNaN(c) {
		return 0, false
	}
	switch op {
	case runtime.STAR:
		return c, true
	case runtime.SLASH:
		// c = frac * 2^exp with |frac| in [0.5, 1): a power of two when
		// |frac| == 0.5, and then 1/c = ±2^(1-exp), a normal number of f32
		// when 1-exp is in [-126, 127] (f64: [-1022, 1023]).
		frac, exp := math.Frexp(c)
		lo, hi := -126, 127
		if dt == tensor.F64 {
			lo, hi = -1022, 1023
		}
		if math.Abs(frac) != 0.5 || exp < lo || exp > hi {
			return 0, false
		}
		return 1 / c, true
	}
	return 0, false
}

// einsumErr reports equation and shape errors found at run time as
// PyTorch does, as RuntimeError (the compiler reports malformed literals
// as syntax errors before the program runs).
func einsumErr(err error) error {
	var ee *einsum.Error
	if errors.As(err, &ee) {
		return runtime.Errorf("RuntimeError", "%s", ee.Msg)
	}
	return err
}
