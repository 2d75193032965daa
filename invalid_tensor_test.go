package tsr_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// TestInvalidHostTensor: a zero tensor.Tensor{} handed to the interpreter
// (SetGlobal, Call arguments and keyword arguments, a registered Go
// function's result, inside a list) is a ValueError naming the problem at
// conversion, not an InternalError (nil pointer dereference) when the
// program first reads it; a typed nil *tensor.Tensor is none.
func TestInvalidHostTensor(t *testing.T) {
	ctx := context.Background()
	isValueError := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		var ke *runtime.KindError
		var ee *runtime.EvalError
		kind := ""
		switch {
		case errors.As(err, &ke):
			kind = ke.Kind
		case errors.As(err, &ee):
			kind = ee.Kind
		}
		if kind != "ValueError" || !strings.Contains(err.Error(), "invalid *tensor.Tensor") || !strings.Contains(err.Error(), "no storage") {
			t.Errorf("%s: got %v (kind %q), want a ValueError about an invalid *tensor.Tensor without storage", what, err, kind)
		}
		if strings.Contains(err.Error(), "InternalError") || strings.Contains(err.Error(), "nil pointer") {
			t.Errorf("%s: %v", what, err)
		}
	}

	in := tsr.New(tsr.Options{Stdout: &bytes.Buffer{}})
	isValueError("SetGlobal", in.SetGlobal("host_t", &tensor.Tensor{}))
	if _, ok := in.Global("host_t"); ok {
		t.Error("SetGlobal bound t despite the error")
	}
	isValueError("SetGlobal in a list", in.SetGlobal("ts", []any{1, &tensor.Tensor{}}))

	if _, err := in.Eval(ctx, "f.tsr", "fn f(x, k=none) { x.sum() }"); err != nil {
		t.Fatal(err)
	}
	_, err := in.Call(ctx, "f", &tensor.Tensor{})
	isValueError("Call argument", err)
	ok, _ := tensor.FromFloat64s([]float64{1, 2}, []int{2}, tensor.F64)
	_, err = in.Call(ctx, "f", ok, tsr.Kwargs{"k": &tensor.Tensor{}})
	isValueError("Call keyword argument", err)

	if err := in.RegisterFunc("bad", func() *tensor.Tensor { return &tensor.Tensor{} }); err != nil {
		t.Fatal(err)
	}
	_, err = in.Eval(ctx, "g.tsr", "t = bad()\nprint(t)")
	isValueError("registered function result", err)

	// A typed nil is none (as a nil *mat.Dense), and a valid tensor still
	// converts.
	if err := in.SetGlobal("n", (*tensor.Tensor)(nil)); err != nil {
		t.Fatalf("SetGlobal(nil *tensor.Tensor): %v", err)
	}
	if v, _ := in.Global("n"); v != runtime.None {
		t.Errorf("nil *tensor.Tensor bound %v, want none", v)
	}
	if err := in.SetGlobal("x", ok); err != nil {
		t.Fatal(err)
	}
	v, err := in.Eval(ctx, "h.tsr", "x.sum().item()")
	if err != nil || runtime.Repr(v) != "3.0" {
		t.Errorf("x.sum() = %v, %v", v, err)
	}
}

// TestTensorCheckValid: CheckValid accepts what the package builds (views
// and empty tensors included) and names the problem otherwise.
func TestTensorCheckValid(t *testing.T) {
	x, _ := tensor.Zeros([]int{3, 4}, tensor.F32)
	e, _ := tensor.Zeros([]int{0, 5}, tensor.I64)
	xt, _ := x.Transpose(0, 1)
	for _, v := range []*tensor.Tensor{x, e, xt, tensor.ScalarFloat(1)} {
		if err := v.CheckValid(); err != nil {
			t.Errorf("CheckValid(%v) = %v", v.Shape(), err)
		}
	}
	for _, c := range []struct {
		t    *tensor.Tensor
		want string
	}{{nil, "nil *tensor.Tensor"}, {&tensor.Tensor{}, "no storage"}} {
		err := c.t.CheckValid()
		var te *tensor.Error
		if !errors.As(err, &te) || te.Kind != tensor.ValueError || !strings.Contains(te.Msg, c.want) {
			t.Errorf("CheckValid = %v, want a ValueError containing %q", err, c.want)
		}
	}
}
