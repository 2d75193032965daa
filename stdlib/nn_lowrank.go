package stdlib

import (
	"fmt"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg"
)

// nn.LowRankLinear: a Linear layer factored through rank r (seed chapter
// Lab 4, LoRA-style): y = (x @ A.T) @ B.T + bias with A [rank, in] and
// B [out, rank]. LowRankLinear.from_linear(layer, rank) builds it from the
// truncated SVD W ≈ U_r diag(S_r) Vh_r of a Linear layer's weight, with the
// singular values split evenly: A = diag(sqrt(S_r)) Vh_r, B = U_r diag(sqrt(S_r)).

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_lowrank.go initialised before nn.go")
	}
	m.Members["LowRankLinear"] = &lowRankClass{}
}

// lowRankClass is the nn.LowRankLinear class value: callable as
// LowRankLinear(in_features, out_features, rank, bias=true, dtype=f32) and
// with the constructor method from_linear.
type lowRankClass struct{}

func (*lowRankClass) String() string { return "<class nn.LowRankLinear>" }
func (*lowRankClass) Type() string   { return "class" }
func (*lowRankClass) Truth() bool    { return true }
func (*lowRankClass) Name() string   { return "nn.LowRankLinear" }

// Call builds a randomly initialised layer: A and B uniform in
// ±1/sqrt(fan_in) of each factor (nn.Linear's default for each factor).
func (*lowRankClass) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var in, out, rank int
	bias := true
	var dt dtypeOpt
	if err := runtime.UnpackArgs("LowRankLinear", args, kwargs, "in_features", &in, "out_features", &out, "rank", &rank, "bias?", &bias, "dtype?", &dt); err != nil {
		return nil, err
	}
	if in < 0 || out < 0 || rank < 0 {
		return nil, runtime.Errorf("RuntimeError", "LowRankLinear: in_features, out_features and rank must be non-negative")
	}
	dargs := []runtime.Kwarg{}
	if dt.ok {
		dargs = append(dargs, runtime.Kwarg{Name: "dtype", Value: &DTypeValue{dt: dt.dt}})
	}
	l1, err := newLinear(th, []runtime.Value{runtime.MakeInt(int64(in)), runtime.MakeInt(int64(rank)), runtime.Bool(false)}, dargs)
	if err != nil {
		return nil, err
	}
	l2, err := newLinear(th, []runtime.Value{runtime.MakeInt(int64(rank)), runtime.MakeInt(int64(out)), runtime.Bool(bias)}, dargs)
	if err != nil {
		return nil, err
	}
	f1, f2 := l1.(*layer).fields, l2.(*layer).fields
	return newLowRankLayer(in, out, rank, f1["weight"], f2["weight"], f2["bias"]), nil
}

// Attr exposes from_linear.
func (c *lowRankClass) Attr(name string) (runtime.Value, error) {
	if name != "from_linear" {
		return nil, nil
	}
	b := runtime.NewBuiltin("nn.LowRankLinear.from_linear", lowRankFromLinear)
	b.Doc = "from_linear(layer, rank): factor an nn.Linear through its rank-`rank` truncated SVD; the layer has parameters A [rank, in], B [out, rank] and the copied bias, and fields energy and rel_error of the weight's approximation."
	return b, nil
}

// AttrNames lists from_linear.
func (*lowRankClass) AttrNames() []string { return []string{"from_linear"} }

func lowRankFromLinear(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var lv runtime.Value
	var rank int
	if err := runtime.UnpackArgs("LowRankLinear.from_linear", args, kwargs, "layer", &lv, "rank", &rank); err != nil {
		return nil, err
	}
	l, ok := lv.(*layer)
	if !ok || l.kind != "Linear" {
		return nil, runtime.Errorf("TypeError", "LowRankLinear.from_linear(): layer must be an nn.Linear, not %s", lv.Type())
	}
	W := l.fields["weight"].(*TensorValue).t
	e := autograd.NewEngine() // the factorization is not recorded (torch.no_grad)
	e.SetGradEnabled(false)
	lr, err := linalg.LowRank(e, W, rank)
	if err != nil {
		return nil, err
	}
	sq, err := tensor.Sqrt(lr.S)
	if err != nil {
		return nil, err
	}
	col, err := sq.Unsqueeze(sq.Dim())
	if err != nil {
		return nil, err
	}
	A, err := tensor.Mul(col, lr.Vh) // diag(sqrt S) Vh : [rank, in]
	if err != nil {
		return nil, err
	}
	B, err := tensor.Mul(lr.U, sq) // U diag(sqrt S) : [out, rank]
	if err != nil {
		return nil, err
	}
	if err := autograd.RequiresGrad_(A, true); err != nil {
		return nil, err
	}
	if err := autograd.RequiresGrad_(B, true); err != nil {
		return nil, err
	}
	var bias runtime.Value = runtime.None
	if bv, ok := l.fields["bias"].(*TensorValue); ok {
		c := bv.t.Clone()
		if err := autograd.RequiresGrad_(c, true); err != nil {
			return nil, err
		}
		bias = newParamValue(th, c)
	}
	in, out := W.Shape()[1], W.Shape()[0]
	nl := newLowRankLayer(in, out, rank, newParamValue(th, A), newParamValue(th, B), bias)
	nl.fields["energy"] = runtime.Float(lr.Energy.FlatFloat64(0))
	nl.fields["rel_error"] = runtime.Float(lr.RelError.FlatFloat64(0))
	return nl, nil
}

func newLowRankLayer(in, out, rank int, A, B, bias runtime.Value) *layer {
	l := &layer{kind: "LowRankLinear", config: []string{"in_features", "out_features", "rank", "bias"},
		params: []string{"A", "B", "bias"},
		fields: map[string]runtime.Value{
			"in_features":  runtime.MakeInt(int64(in)),
			"out_features": runtime.MakeInt(int64(out)),
			"rank":         runtime.MakeInt(int64(rank)),
			"A":            A,
			"B":            B,
			"bias":         bias,
		}}
	l.repr = func(l *layer) string {
		return fmt.Sprintf("LowRankLinear(in_features=%s, out_features=%s, rank=%s, bias=%s)", l.fields["in_features"],
			l.fields["out_features"], l.fields["rank"], runtime.Bool(l.fields["bias"] != runtime.None))
	}
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		if err := runtime.UnpackArgs("LowRankLinear", args, kwargs, "input", &x); err != nil {
			return nil, err
		}
		e := engineOf(th)
		h, err := linearOp(e, x.t, l.fields["A"].(*TensorValue).t, nil)
		if err != nil {
			return nil, err
		}
		var b *T
		if bv, ok := l.fields["bias"].(*TensorValue); ok {
			b = bv.t
		}
		y, err := linearOp(e, h, l.fields["B"].(*TensorValue).t, b)
		if err != nil {
			return nil, err
		}
		return NewTensorValue(th, y), nil
	}
	return l
}
