package stdlib

import (
	"errors"

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
// (the same errors, raised here) and returns a pendingProduct for the
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
	return einsumPending(th, eq, ops), nil
}

// einsumPending is the pendingProduct of a checked einsum call.
func einsumPending(th *runtime.Thread, eq string, ops []*T) *pendingProduct {
	eng := engineOf(th)
	return &pendingProduct{
		desc: "einsum " + eq,
		dt:   ops[0].DType(),
		run: func(alpha *float64) (*T, bool, error) {
			if alpha == nil {
				r, err := autograd.Einsum(eng, eq, ops)
				return r, false, einsumErr(err)
			}
			r, applied, err := autograd.EinsumScaled(eng, eq, ops, *alpha)
			return r, applied, einsumErr(err)
		},
		wrap: func(r *T) *TensorValue { return einsumResult(th, r) },
	}
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
