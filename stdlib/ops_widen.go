package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Memory formats (torch.contiguous_format, preserve_format, channels_last,
// channels_last_3d) for clone(memory_format=) and
// contiguous(memory_format=), and torch.binomial.

// MemoryFormat is a torch.memory_format value: contiguous_format,
// preserve_format, channels_last (NHWC strides for a 4-d tensor) or
// channels_last_3d (NDHWC, 5-d).
type MemoryFormat struct{ name string }

// String is the format's name, as torch prints torch.channels_last.
func (m *MemoryFormat) String() string { return m.name }

// Type is "memory_format".
func (m *MemoryFormat) Type() string { return "memory_format" }

// Truth is true.
func (m *MemoryFormat) Truth() bool { return true }

var memoryFormats = map[string]*MemoryFormat{}

func init() {
	for _, n := range []string{"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"} {
		memoryFormats[n] = &MemoryFormat{n}
		globals[n] = memoryFormats[n]
	}
	defGlobal("binomial", "binomial(count, prob, generator=none): samples of Binomial(count, prob) for float tensors count and prob of one dtype (prob broadcast to count's shape), in that dtype: PyTorch's sample_binomial (inversion of geometric waiting times when count*min(p, 1-p) < 10, else Hörmann's BTRS transformed rejection), drawing uniform doubles from the interpreter's generator, so the stream after manual_seed is torch's. Not differentiable.", builtinBinomial)
}

// memoryFormatArg is a memory_format= argument (default preserve_format).
type memoryFormatArg struct{ name string }

func (a *memoryFormatArg) Unpack(v runtime.Value) error {
	m, ok := v.(*MemoryFormat)
	if !ok {
		return runtime.Errorf("TypeError", "memory_format must be a memory format (contiguous_format, preserve_format, channels_last, channels_last_3d), not %s", v.Type())
	}
	a.name = m.name
	return nil
}

// channelsLastStrides returns the strides of x's shape in channels_last
// (rank 4) or channels_last_3d (rank 5) order: C innermost, then W, H, D,
// then N; torch's RuntimeError for another rank.
func channelsLastStrides(format string, shape []int) ([]int, error) {
	rank := 4
	if format == "channels_last_3d" {
		rank = 5
	}
	if len(shape) != rank {
		return nil, runtime.Errorf("RuntimeError", "required rank %d tensor to use %s format", rank, format)
	}
	st := make([]int, rank)
	s := 1
	st[1] = s
	s *= max(shape[1], 1)
	for d := rank - 1; d >= 2; d-- {
		st[d] = s
		s *= max(shape[d], 1)
	}
	st[0] = s
	return st, nil
}

// cloneFormat is clone(memory_format=): preserve_format keeps a dense
// tensor's strides, contiguous_format is row-major, channels_last(_3d)
// lays the channels innermost. Recorded as one clone (CloneBackward0).
func cloneFormat(e *Engine, x *T, format string) (*T, error) {
	switch format {
	case "", "preserve_format":
		return clonePreserveOp(e, x)
	case "contiguous_format":
		return cloneOp(e, x)
	}
	st, err := channelsLastStrides(format, x.Shape())
	if err != nil {
		return nil, err
	}
	return e.Apply("clone", []*T{x}, nil, func() (*T, error) { return x.Clone().WithStrides(st) })
}

// sampleBinomial is ATen's sample_binomial (aten/src/ATen/native/
// Distributions.h, adapted there from TensorFlow's random_binomial_op):
// count and prob are scalar_t (rs rounds to it), the uniforms and the
// arithmetic on them doubles.
func sampleBinomial(g *tensor.Generator, count, prob float64, rs func(float64) float64) float64 {
	switch {
	case count <= 0 || prob <= 0:
		return 0
	case prob >= 1:
		return count
	case prob <= 0.5:
		if rs(count*prob) >= 10 {
			return binomialBTRS(g, count, prob, rs)
		}
		return binomialInversion(g, count, prob, rs)
	case prob > 0.5:
		q := rs(1 - prob)
		if rs(count*q) >= 10 {
			return rs(count - binomialBTRS(g, count, q, rs))
		}
		return rs(count - binomialInversion(g, count, q, rs))
	}
	return math.NaN()
}

// binomialInversion counts geometric waiting times until they pass count.
func binomialInversion(g *tensor.Generator, count, prob float64, rs func(float64) float64) float64 {
	logprob := rs(math.Log1p(-prob))
	sum, n := 0.0, 0.0
	for {
		geom := math.Ceil(math.Log(g.Float64()) / logprob)
		sum += geom
		if sum > count {
			return n
		}
		n = rs(n + 1)
	}
}

// stirlingTail is ATen's stirling_approx_tail: log(k!) minus its Stirling
// approximation (a table for k <= 9).
func stirlingTail(k float64) float64 {
	tail := [...]float64{0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
		0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
		0.00925546218271273, 0.00833056343336287}
	if k <= 9 {
		return tail[int(k)]
	}
	kp1sq := (k + 1) * (k + 1)
	return (1.0/12 - (1.0/360-1.0/1260/kp1sq)/kp1sq) / (k + 1)
}

// binomialBTRS is Hörmann's BTRS (1993) as ATen's btrs, including its
// deviation (a log on the bound's side only).
func binomialBTRS(g *tensor.Generator, count, prob float64, rs func(float64) float64) float64 {
	stddev := rs(math.Sqrt(rs(rs(count*prob) * rs(1-prob)))) // std::sqrt of a scalar_t
	b := 1.15 + 2.53*stddev
	a := -0.0873 + 0.0248*b + 0.01*prob
	c := rs(count*prob) + 0.5
	vr := 0.92 - 4.2/b
	r := rs(prob / rs(1-prob))
	alpha := (2.83 + 5.1/b) * stddev
	m := math.Floor(rs(rs(count+1) * prob))
	for {
		U := g.Float64() - 0.5
		V := g.Float64()
		us := 0.5 - math.Abs(U)
		k := rs(math.Floor((2*a/us+b)*U + c))
		if k < 0 || k > count {
			continue
		}
		if us >= 0.07 && V <= vr {
			return k
		}
		V = math.Log(V * alpha / (a/(us*us) + b))
		ck1 := rs(rs(count-k) + 1)
		upper := (m+0.5)*math.Log((m+1)/(r*(count-m+1))) +
			(count+1)*math.Log((count-m+1)/ck1) +
			(k+0.5)*math.Log(r*ck1/rs(k+1)) +
			stirlingTail(m) + stirlingTail(count-m) - stirlingTail(k) - stirlingTail(rs(count-k))
		if V <= upper {
			return k
		}
	}
}

// builtinBinomial is torch.binomial(count, prob, generator=None).
func builtinBinomial(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var count, prob tensorArg
	var gen runtime.Value = runtime.None
	if err := runtime.UnpackArgs("binomial", args, kwargs, "count", &count, "prob", &prob, "generator?", &gen); err != nil {
		return nil, err
	}
	dt := count.t.DType()
	if dt != tensor.F32 && dt != tensor.F64 {
		return nil, notImplementedFor("binomial_cpu", dt)
	}
	if prob.t.DType() != dt {
		return nil, runtime.Errorf("RuntimeError", "Found dtype %s but expected %s", prob.t.DType().TorchName(), dt.TorchName())
	}
	shape := count.t.Shape()
	if _, err := tensor.BroadcastShapes(shape, prob.t.Shape()); err != nil {
		return nil, err
	}
	p, err := prob.t.Expand(shape...)
	if err != nil {
		return nil, err
	}
	rs := func(v float64) float64 { return tensor.RoundToDType(v, dt) }
	g := stateOf(th).gen
	cv, pv := count.t.ToFloat64s(), p.Contiguous().ToFloat64s()
	out := make([]float64, len(cv))
	for i := range cv {
		out[i] = sampleBinomial(g, cv[i], pv[i], rs)
	}
	t, err := tensor.FromFloat64s(out, shape, dt)
	return tensorResult(th, t, err)
}

// kwOnly is runtime.UnpackArgs for a function whose arguments are all
// keyword-only (Python's *): a positional argument is a TypeError.
func kwOnly(fname string, args []runtime.Value, kwargs []runtime.Kwarg, pairs ...any) error {
	if len(args) > 0 {
		return runtime.Errorf("TypeError", "%s() takes 0 positional arguments but %d were given", fname, len(args))
	}
	return runtime.UnpackArgs(fname, nil, kwargs, pairs...)
}

// unitDiagonal is A with its diagonal (over the last two dims) replaced
// by ones, recorded as A * (1 - I) + I so that the diagonal gets no
// gradient (linalg.solve_triangular(unitriangular=true)).
func unitDiagonal(e *Engine, a *T) (*T, error) {
	if a.Dim() < 2 {
		return a, nil // linalg.SolveTriangular reports the shape error
	}
	n, m := a.Shape()[a.Dim()-2], a.Shape()[a.Dim()-1]
	eye, err := tensor.Eye(n, m, a.DType())
	if err != nil {
		return nil, err
	}
	off, err := tensor.Sub(tensor.ScalarFloat(1), eye)
	if err != nil {
		return nil, err
	}
	if a, err = applyBinary(e, "mul", tensor.Mul, a, off); err != nil {
		return nil, err
	}
	return applyBinary(e, "add", tensor.Add, a, eye)
}
