package stdlib

import (
	"math"
	"sync/atomic"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Deferred products: `ein"..."(q, k) * s` and `(a @ b) * s` (or `/ s`)
// with a side-effect-free s. The compiler marks the contraction
// (FRESH_MARK with FreshDefer, BINARY with BinaryDefer); once its operands
// are checked, the VM holds a pendingProduct instead of the result until
// the operator has s, and a number s then becomes the epilogue scale of
// the product's last GEMM: one pass over the result instead of two, bit
// for bit the same values.

// scaleFolds counts the scales folded into a product (for tests).
var scaleFolds atomic.Int64

// pendingProduct is a checked product whose computation waits for the
// BINARY_TMP consuming it (see runtime.HasBinaryDefer). run computes it,
// scaled by *alpha when alpha is not nil and the scale folds (applied);
// wrap makes the tsr value of a result. The VM never lets anything else
// see it.
type pendingProduct struct {
	desc string
	dt   tensor.DType
	run  func(alpha *float64) (r *T, applied bool, err error)
	wrap func(*T) *TensorValue
}

func (p *pendingProduct) String() string { return "<pending " + p.desc + ">" }
func (p *pendingProduct) Type() string   { return "tensor" }
func (p *pendingProduct) Truth() bool    { return true }

// BinaryTemp computes the product and returns product op y: exactly what
// the undeferred product followed by the operator returns. A failure of
// the product itself is a *runtime.DeferredError (runtime.Pending).
func (p *pendingProduct) BinaryTemp(op runtime.Op, y runtime.Value, after int64) (runtime.Value, error) {
	var r *T
	var err error
	if alpha, ok := foldScale(op, y, p.dt); ok {
		var applied bool
		if r, applied, err = p.compute(&alpha); err != nil {
			return nil, &runtime.DeferredError{Err: err}
		}
		if applied {
			scaleFolds.Add(1)
			return p.wrap(r), nil
		}
	} else if r, _, err = p.compute(nil); err != nil {
		return nil, &runtime.DeferredError{Err: err}
	}
	x := p.wrap(r)
	z, err := x.BinaryTemp(op, y, after)
	if z != nil || err != nil {
		return z, err
	}
	return runtime.Binary(op, x, y)
}

// Force computes the product for its error (runtime.Pending): the operand
// of the operator failed, and the undeferred program would have computed
// the product first.
func (p *pendingProduct) Force() error {
	_, _, err := p.compute(nil)
	return err
}

// compute is run with an allocation's MemoryError panic as its error.
func (p *pendingProduct) compute(alpha *float64) (r *T, applied bool, err error) {
	defer runtime.RecoverMemoryError(&err)
	return p.run(alpha)
}

// BinaryDefer implements runtime.HasBinaryDefer for x @ y: a product of
// two float32 or float64 tensors of one dtype that records no gradient
// and whose shapes multiply is returned pending; anything else declines
// (and the VM's Binary reports what is wrong, as without the mark).
func (x *TensorValue) BinaryDefer(op runtime.Op, y runtime.Value) (runtime.Value, error) {
	yt, ok := y.(*TensorValue)
	if op != runtime.AT || !ok {
		return nil, nil
	}
	a, b := x.t, yt.t
	dt := a.DType()
	if x.eng == nil || dt != b.DType() || dt != tensor.F32 && dt != tensor.F64 ||
		x.eng.GradEnabled() && (a.RequiresGrad() || b.RequiresGrad()) || tensor.CheckMatmul(a, b) != nil {
		return nil, nil
	}
	eng := x.eng
	return &pendingProduct{
		desc: "matmul",
		dt:   dt,
		run: func(alpha *float64) (*T, bool, error) {
			if alpha == nil {
				r, err := tensor.Matmul(a, b)
				return r, false, err
			}
			r, err := tensor.MatmulScaled(a, b, *alpha)
			return r, err == nil, err
		},
		wrap: func(r *T) *TensorValue { return opResult(eng, r, a, b) },
	}, nil
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
