package stdlib

import (
	crand "crypto/rand"
	"encoding/binary"
	"math"
	"strconv"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// PyTorch 1.13's in-place random fills (bernoulli_, random_,
// exponential_, geometric_, log_normal_, cauchy_), poisson, and the
// generator state functions (get_rng_state, set_rng_state,
// initial_seed, seed). The fills draw from the interpreter's generator
// in row-major order with PyTorch's serial CPU transforms, so after
// manual_seed they give PyTorch's values: exponential_ -log(1-u)/lambd,
// cauchy_ median + sigma*tan(pi*(u-0.5)), geometric_ ceil(log(u)/log1p(-p))
// (u a 53-bit f64 uniform), log_normal_ exp of the f64 Box-Muller normal,
// random_ PyTorch's modulo of 32- or 64-bit draws, poisson PyTorch's
// sample_poisson (Hoermann's transformed rejection for rates >= 10, a
// product of uniforms below). bernoulli_(p) compares uniforms with p: f64
// uniforms for a number p, uniforms of self's dtype for a tensor p (24-bit
// for f32), as PyTorch's default CPU kernels; PyTorch's MKL path for a
// number p on some Intel builds, and its kernel for an f64 self with an
// f32 p, draw other streams (same distribution, other values).

func init() {
	defMethod("exponential_", "exponential_(lambd=1): fill in place with exponential samples of rate lambd (-log(1-u)/lambd, u uniform f64), PyTorch's stream after manual_seed; float dtypes only; returns self.", methodFillH5("exponential_"))
	defMethod("cauchy_", "cauchy_(median=0, sigma=1): fill in place with Cauchy samples (median + sigma*tan(pi*(u-0.5))); float dtypes only; returns self.", methodFillH5("cauchy_"))
	defMethod("log_normal_", "log_normal_(mean=1, std=2): fill in place with exp(N(mean, std)) samples (std > 0); float dtypes only; returns self.", methodFillH5("log_normal_"))
	defMethod("geometric_", "geometric_(p): fill in place with the number of Bernoulli(p) trials up to the first success (ceil(log(u)/log1p(-p)), 0 < p < 1); any non-bool dtype; returns self.", methodFillH5("geometric_"))
	defMethod("random_", "random_(from=0, to=none): fill in place with integers uniform in [from, to) (random_(to) is [0, to)); without bounds, in [0, 2**mantissa] for floats or [0, max] for integers; returns self.", methodRandomH5)
	defMethod("bernoulli_", "bernoulli_(p=0.5): fill in place with 1 with probability p (a number in [0, 1], or a tensor broadcastable to self), else 0; float dtypes; returns self.", methodBernoulliH5)
	defGlobal("poisson", "poisson(input): samples of Poisson(rate) for each non-negative rate of the float input, in input's dtype (PyTorch's sample_poisson, its stream after manual_seed). Not differentiable.", builtinPoisson)
	defGlobal("get_rng_state", "get_rng_state(): the generator state as a u8 tensor [5056] in PyTorch's CPU layout (set_rng_state restores it; a state saved by PyTorch 1.13 is accepted too).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("get_rng_state", args, kwargs); err != nil {
			return nil, err
		}
		st := stateOf(th).gen.State()
		v := make([]int64, len(st))
		for i, c := range st {
			v[i] = int64(c)
		}
		t, err := tensor.FromInt64s(v, []int{len(v)}, tensor.U8)
		return tensorResult(th, t, err)
	})
	defGlobal("set_rng_state", "set_rng_state(new_state): restore the generator from a u8 tensor made by get_rng_state; the draws that follow repeat those that followed it. TypeError for a non-u8 tensor, RuntimeError for a wrong size.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var s tensorArg
		if err := runtime.UnpackArgs("set_rng_state", args, kwargs, "new_state", &s); err != nil {
			return nil, err
		}
		if s.t.DType() != tensor.U8 {
			return nil, runtime.Errorf("TypeError", "expected a u8 tensor (torch.ByteTensor) as the RNG state, got %s", s.t.DType())
		}
		raw := s.t.ToFloat64s()
		st := make([]byte, len(raw))
		for i, v := range raw {
			st[i] = byte(v)
		}
		return runtime.None, stateOf(th).gen.SetState(st)
	})
	defGlobal("initial_seed", "initial_seed(): the seed the generator was last seeded with (manual_seed or seed), as an int.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("initial_seed", args, kwargs); err != nil {
			return nil, err
		}
		return runtime.Int(int64(stateOf(th).gen.InitialSeed())), nil
	})
	defGlobal("seed", "seed(): reseed the generator with a non-deterministic seed (from the OS) and return it.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("seed", args, kwargs); err != nil {
			return nil, err
		}
		var buf [8]byte
		if _, err := crand.Read(buf[:]); err != nil {
			return nil, runtime.Errorf("RuntimeError", "seed: %v", err)
		}
		s := binary.LittleEndian.Uint64(buf[:]) >> 1 // non-negative as an int
		stateOf(th).gen.ManualSeed(s)
		return runtime.Int(int64(s)), nil
	})
}

// fmtG formats a double as PyTorch's messages print it (-1, 0.5).
func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeFill writes r (self's shape) into x in place as copy_ (one version
// bump; a leaf that requires grad is refused outside no_grad).
func writeFill(e *Engine, x *TensorValue, r *T) (runtime.Value, error) {
	if err := e.ApplyInplace("copy", x.t, []*T{r}, nil, func() error { return x.t.CopyInplace(r) }); err != nil {
		return nil, err
	}
	return x, nil
}

func methodFillH5(name string) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var a, b float64
		var gen runtime.Value = runtime.None
		var err error
		switch name {
		case "exponential_":
			a = 1
			err = runtime.UnpackArgs(name, args, kwargs, "lambd?", &a, "generator?", &gen)
		case "cauchy_":
			a, b = 0, 1
			err = runtime.UnpackArgs(name, args, kwargs, "median?", &a, "sigma?", &b, "generator?", &gen)
		case "log_normal_":
			a, b = 1, 2
			err = runtime.UnpackArgs(name, args, kwargs, "mean?", &a, "std?", &b, "generator?", &gen)
		case "geometric_":
			err = runtime.UnpackArgs(name, args, kwargs, "p", &a, "generator?", &gen)
		}
		if err != nil {
			return nil, err
		}
		if gen != runtime.None {
			return nil, runtime.Errorf("TypeError", "%s(): generator= is not supported (tsr has one generator; use manual_seed)", name)
		}
		dt := x.t.DType()
		kernel := name[:len(name)-1] + "_cpu"
		switch name {
		case "exponential_":
			if !(a >= 0) {
				return nil, runtime.Errorf("RuntimeError", "exponential_ expects lambda >= 0.0, but found lambda=%s", fmtG(a))
			}
		case "log_normal_":
			if !(b > 0) {
				return nil, runtime.Errorf("RuntimeError", "log_normal_ expects std > 0.0, but found std=%s", fmtG(b))
			}
		case "geometric_":
			if !(a > 0 && a < 1) {
				return nil, runtime.Errorf("RuntimeError", "geometric_ expects p to be in (0, 1), but got p=%s", fmtG(a))
			}
		}
		if name == "geometric_" {
			if dt == tensor.Bool {
				return nil, notImplementedFor(kernel, dt)
			}
		} else if !dt.IsFloat() {
			return nil, notImplementedFor(kernel, dt)
		}
		g := stateOf(th).gen
		var r *T
		if name == "log_normal_" {
			out := make([]float64, x.t.Numel())
			for i := range out {
				out[i] = math.Exp(g.NormalFloat64(a, b))
			}
			if r, err = tensor.FromFloat64s(out, x.t.Shape(), dt); err != nil {
				return nil, err
			}
		} else {
			// one f64 uniform per element, in order
			var f func(u float64) float64
			switch name {
			case "exponential_":
				f = func(u float64) float64 { return -1 / a * math.Log(1-u) }
			case "cauchy_":
				f = func(u float64) float64 { return a + b*math.Tan(math.Pi*(u-0.5)) }
			default: // geometric_
				f = func(u float64) float64 { return math.Ceil(math.Log(u) / math.Log1p(-a)) }
			}
			if r, err = tensor.FromUniforms(g, x.t.Shape(), dt, f); err != nil {
				return nil, err
			}
		}
		return writeFill(engineOf(th), x, r)
	}
}

// dtypeRandomRange is the exclusive bound of random_() without bounds:
// 2**digits + 1 for floats (PyTorch's uniform_int: the integers a float
// holds exactly, both ends included), max + 1 for integers, 2 for bool.
func dtypeRandomRange(dt tensor.DType) uint64 {
	switch dt {
	case tensor.F64:
		return 1<<53 + 1
	case tensor.F32:
		return 1<<24 + 1
	case tensor.F16:
		return 1<<11 + 1
	case tensor.BF16:
		return 1<<8 + 1
	case tensor.I64:
		return 1 << 63
	case tensor.I32:
		return 1 << 31
	case tensor.I16:
		return 1 << 15
	case tensor.I8:
		return 1 << 7
	case tensor.U8:
		return 1 << 8
	}
	return 2
}

func methodRandomH5(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var from, to intOpt
	var gen runtime.Value = runtime.None
	if err := runtime.UnpackArgs("random_", args, kwargs, "from?", &from, "to?", &to, "generator?", &gen); err != nil {
		return nil, err
	}
	if from.ok && !to.ok && len(args) == 1 {
		from, to = intOpt{v: 0, ok: true}, from // random_(to)
	}
	dt := x.t.DType()
	g := stateOf(th).gen
	out := make([]int64, x.t.Numel())
	if !to.ok {
		lo := int64(0)
		if from.ok {
			lo = int64(from.v)
		}
		if lo != 0 {
			return nil, runtime.Errorf("RuntimeError", "random_(from, to=none) is not supported by tsr for from != 0; give both bounds")
		}
		rng := dtypeRandomRange(dt)
		for i := range out {
			if dt == tensor.Bool {
				out[i] = int64(g.Uint32() & 1)
			} else if dt == tensor.F64 || dt == tensor.I64 {
				out[i] = int64(g.Uint64() % rng)
			} else {
				out[i] = int64(uint64(g.Uint32()) % rng)
			}
		}
	} else {
		lo, hi := int64(0), int64(to.v)
		if from.ok {
			lo = int64(from.v)
		}
		if lo >= hi {
			return nil, runtime.Errorf("RuntimeError", "random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", lo, hi)
		}
		rng := uint64(hi - lo)
		for i := range out {
			var v uint64
			if rng >= 1<<32 {
				v = g.Uint64()
			} else {
				v = uint64(g.Uint32())
			}
			out[i] = int64(v%rng) + lo
		}
	}
	var r *T
	var err error
	if dt.IsFloat() {
		f := make([]float64, len(out))
		for i, v := range out {
			f[i] = float64(v)
		}
		r, err = tensor.FromFloat64s(f, x.t.Shape(), dt)
	} else {
		r, err = tensor.FromInt64s(out, x.t.Shape(), dt)
	}
	if err != nil {
		return nil, err
	}
	return writeFill(engineOf(th), x, r)
}

func methodBernoulliH5(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var p runtime.Value = runtime.Float(0.5)
	var gen runtime.Value = runtime.None
	if err := runtime.UnpackArgs("bernoulli_", args, kwargs, "p?", &p, "generator?", &gen); err != nil {
		return nil, err
	}
	dt := x.t.DType()
	n := x.t.Numel()
	probs := make([]float64, n)
	if pt, ok := p.(*TensorValue); ok {
		bp, err := pt.t.Expand(x.t.Shape()...)
		if err != nil {
			return nil, runtime.Errorf("RuntimeError", "bernoulli_: p of shape %s does not broadcast to self's shape %s", fmtInts(pt.t.Shape()), fmtInts(x.t.Shape()))
		}
		copy(probs, bp.ToFloat64s())
		if !dt.IsFloat() {
			return nil, notImplementedFor("bernoulli_tensor_cpu_self_", dt)
		}
	} else {
		v, ok := numberOf(p)
		if !ok {
			return nil, runtime.Errorf("TypeError", "bernoulli_(): argument 'p' must be a number or a tensor, not %s", p.Type())
		}
		if !(v >= 0 && v <= 1) {
			return nil, runtime.Errorf("RuntimeError", "bernoulli_ expects p to be in [0, 1], but got p=%s", fmtG(v))
		}
		if !dt.IsFloat() {
			return nil, notImplementedFor("bernoulli_scalar_cpu_", dt)
		}
		for i := range probs {
			probs[i] = v
		}
	}
	g := stateOf(th).gen
	out := make([]float64, n)
	_, tensorP := p.(*TensorValue)
	for i, pv := range probs {
		if !(pv >= 0 && pv <= 1) {
			return nil, runtime.Errorf("RuntimeError", "Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
		}
		var u float64
		if tensorP && dt != tensor.F64 {
			// PyTorch's tensor-p kernel draws uniforms of self's
			// dtype: 24 bits for f32 (and f16/bf16)
			u = float64(g.Uint32()&(1<<24-1)) * 0x1p-24
		} else {
			u = g.Float64()
		}
		if u < pv {
			out[i] = 1
		}
	}
	r, err := tensor.FromFloat64s(out, x.t.Shape(), dt)
	if err != nil {
		return nil, err
	}
	return writeFill(engineOf(th), x, r)
}

// samplePoisson is PyTorch's sample_poisson (aten/src/ATen/native/
// Distributions.cpp, after NumPy's legacy generator): for lambda >= 10
// the transformed rejection method of Hoermann (1993), "The transformed
// rejection method for generating Poisson random variables"; below, the
// count of uniforms whose running product stays above exp(-lambda).
func samplePoisson(g *tensor.Generator, lambda float64) float64 {
	if lambda >= 10 {
		slam := math.Sqrt(lambda)
		loglam := math.Log(lambda)
		b := 0.931 + 2.53*slam
		a := -0.059 + 0.02483*b
		invalpha := 1.1239 + 1.1328/(b-3.4)
		vr := 0.9277 - 3.6224/(b-2)
		for {
			U := g.Float64() - 0.5
			V := g.Float64()
			us := 0.5 - math.Abs(U)
			k := math.Floor((2*a/us+b)*U + lambda + 0.43)
			if us >= 0.07 && V <= vr {
				return k
			}
			if k < 0 || (us < 0.013 && V > us) {
				continue
			}
			lg, _ := math.Lgamma(k + 1)
			if math.Log(V)+math.Log(invalpha)-math.Log(a/(us*us)+b) <= -lambda+k*loglam-lg {
				return k
			}
		}
	}
	if lambda == 0 {
		return 0
	}
	enlam := math.Exp(-lambda)
	x, prod := 0.0, 1.0
	for {
		prod *= g.Float64()
		if prod > enlam {
			x++
		} else {
			return x
		}
	}
}

func builtinPoisson(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var in tensorArg
	var gen runtime.Value = runtime.None
	if err := runtime.UnpackArgs("poisson", args, kwargs, "input", &in, "generator?", &gen); err != nil {
		return nil, err
	}
	if !in.t.DType().IsFloat() {
		return nil, notImplementedFor("poisson_cpu", in.t.DType())
	}
	rates := in.t.ToFloat64s()
	for _, l := range rates {
		if !(l >= 0) {
			return nil, runtime.Errorf("RuntimeError", "invalid Poisson rate, expected rate to be non-negative")
		}
	}
	g := stateOf(th).gen
	out := make([]float64, len(rates))
	for i, l := range rates {
		out[i] = samplePoisson(g, l)
	}
	t, err := tensor.FromFloat64s(out, in.t.Shape(), in.t.DType())
	return tensorResult(th, t, err)
}
