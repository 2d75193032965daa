package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Tensor-aware versions of the Universe builtins abs, min, max, sum,
// round, len, all and any (int, float and bool are the dtype values, see dtype.go).
// With a tensor first argument they follow torch.abs, torch.min,
// torch.max, torch.sum and torch.round; otherwise they delegate to the
// runtime's builtin.

func init() {
	defOverride("abs", "abs(x): |x| for numbers; elementwise for tensors.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if x, ok := firstTensor(args); ok {
			return tensorMethods["abs"].BindReceiver(x).Call(th, args[1:], kwargs)
		}
		return callUniverse(th, "abs", args, kwargs)
	})
	// all/any: torch.all/torch.any for a tensor, Python's builtins for any
	// other iterable (all([x > 0 for ...]) style checks on lists).
	for _, name := range []string{"all", "any"} {
		name := name
		want := name == "any" // the truth value that ends the scan
		defOverride(name, name+"(t, dim=none, keepdim=false) for tensors (torch."+name+"); "+name+"(iterable) for other values (Python's builtin: the truth of every / some element).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if x, ok := firstTensor(args); ok {
				return tensorMethods[name].BindReceiver(x).Call(th, args[1:], kwargs)
			}
			if len(args) != 1 || len(kwargs) != 0 {
				// input= and the other tensor spellings
				return functional(name, func(th *runtime.Thread, x *TensorValue, a []runtime.Value, k []runtime.Kwarg) (runtime.Value, error) {
					return tensorMethods[name].BindReceiver(x).Call(th, a, k)
				})(th, b, args, kwargs)
			}
			it, err := runtime.Iterate(args[0])
			if err != nil {
				return nil, err
			}
			for {
				v, ok := it.Next()
				if !ok {
					return runtime.Bool(!want), nil
				}
				tv, err := runtime.Truthy(v)
				if err != nil {
					return nil, err
				}
				if tv == want {
					return runtime.Bool(want), nil
				}
			}
		})
	}
	defOverride("round", "round(x, ndigits=none) for numbers; round(t, decimals=0) for tensors (half to even).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if x, ok := firstTensor(args); ok {
			return methodRound(th, x, args[1:], kwargs)
		}
		return callUniverse(th, "round", args, kwargs)
	})
	defOverride("sum", "sum(iterable, start=0) for sequences; sum(t, dim=none, keepdim=false, dtype=none) for tensors.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if x, ok := firstTensor(args); ok {
			return reduceMethod("sum")(th, x, args[1:], kwargs)
		}
		return callUniverse(th, "sum", args, kwargs)
	})
	for _, name := range []string{"max", "min"} {
		name := name
		defOverride(name, name+"(a, b, ...) or "+name+"(iterable) for values; "+name+"(t), "+name+"(t, dim, keepdim=false) (values, indices) and "+name+"(t, other) for tensors.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if x, ok := firstTensor(args); ok {
				return maxMinMethod(name)(th, x, args[1:], kwargs)
			}
			return callUniverse(th, name, args, kwargs)
		})
	}
	defOverride("len", "len(x): the length of a sequence; size(0) of a tensor.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if x, ok := firstTensor(args); ok && len(args) == 1 && len(kwargs) == 0 {
			if x.t.Dim() == 0 {
				return nil, runtime.Errorf("TypeError", "len() of a 0-d tensor")
			}
			return runtime.MakeInt(int64(x.t.Shape()[0])), nil
		}
		return callUniverse(th, "len", args, kwargs)
	})
	defGlobal("set_num_threads", "set_num_threads(n): the number of goroutines large kernels split into.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var n int
		if err := runtime.UnpackArgs("set_num_threads", args, kwargs, "n", &n); err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, runtime.Errorf("RuntimeError", "set_num_threads expects a positive integer, got %d", n)
		}
		tensor.SetNumThreads(n)
		return runtime.None, nil
	})
	defGlobal("get_num_threads", "get_num_threads(): the number of goroutines large kernels split into.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("get_num_threads", args, kwargs); err != nil {
			return nil, err
		}
		return runtime.MakeInt(int64(tensor.GetNumThreads())), nil
	})
	defGlobal("is_tensor", "is_tensor(x): whether x is a tensor.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x runtime.Value
		if err := runtime.UnpackArgs("is_tensor", args, kwargs, "obj", &x); err != nil {
			return nil, err
		}
		_, ok := x.(*TensorValue)
		return runtime.Bool(ok), nil
	})
	defGlobal("numel", "numel(t): the number of elements.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		if err := runtime.UnpackArgs("numel", args, kwargs, "input", &x); err != nil {
			return nil, err
		}
		return runtime.MakeInt(int64(x.t.Numel())), nil
	})
	defGlobal("finfo", "finfo(dtype=f32): limits of a float dtype: bits, eps, max, min, tiny (smallest normal), resolution.", builtinFinfo)
	defGlobal("iinfo", "iinfo(dtype): limits of an integer dtype: bits, max, min.", builtinIinfo)
	defGlobal("tensor", "tensor(data, dtype=none, device=none, requires_grad=false): a tensor from nested lists of numbers (i64 for ints, f32 for floats, bool for bools).", builtinTensor)
	defGlobal("zeros", "zeros(*size, dtype=f32, device=, requires_grad=false): a zero-filled tensor.", factory("zeros", makeZeros))
	defGlobal("ones", "ones(*size, dtype=f32, ...): a tensor of ones.", factory("ones", makeOnes))
	defGlobal("empty", "empty(*size, dtype=f32, ...): an uninitialised tensor.", factory("empty", makeEmpty))
	defGlobal("rand", "rand(*size, dtype=f32, ...): uniform samples in [0, 1) from the manual_seed generator.", factory("rand", makeRand))
	defGlobal("randn", "randn(*size, dtype=f32, ...): standard normal samples from the manual_seed generator.", factory("randn", makeRandn))
	defGlobal("zeros_like", "zeros_like(t, dtype=t.dtype, ...): zeros of t's shape.", likeFactory("zeros_like", makeZeros))
	defGlobal("ones_like", "ones_like(t, dtype=t.dtype, ...): ones of t's shape.", likeFactory("ones_like", makeOnes))
	defGlobal("empty_like", "empty_like(t, dtype=t.dtype, ...): uninitialised, of t's shape.", likeFactory("empty_like", makeEmpty))
	defGlobal("rand_like", "rand_like(t, dtype=t.dtype, ...): uniform samples of t's shape.", likeFactory("rand_like", makeRand))
	defGlobal("randn_like", "randn_like(t, dtype=t.dtype, ...): normal samples of t's shape.", likeFactory("randn_like", makeRandn))
	defGlobal("full", "full(size, fill_value, dtype=inferred, ...): a tensor filled with fill_value (bool, i64 or f32 by its type).", builtinFull)
	defGlobal("full_like", "full_like(t, fill_value, dtype=t.dtype, ...): t's shape filled with fill_value.", builtinFullLike)
	defGlobal("arange", "arange(end) / arange(start, end, step=1, dtype=): evenly spaced values in [start, end) (i64 when all are ints, else f32).", builtinArange)
	defGlobal("linspace", "linspace(start, end, steps, dtype=f32): steps evenly spaced values from start to end inclusive.", builtinLinspace)
	defGlobal("eye", "eye(n, m=n, dtype=f32): ones on the main diagonal.", builtinEye)
	defGlobal("randint", "randint(high, size) / randint(low, high, size, dtype=i64): uniform integers in [low, high).", builtinRandint)
	defGlobal("randint_like", "randint_like(t, high) / randint_like(t, low, high): uniform integers of t's shape.", builtinRandintLike)
	defGlobal("manual_seed", "manual_seed(seed): reseed this interpreter's generator.", builtinManualSeed)
	defGlobal("shares_memory", "shares_memory(a, b): whether the two views overlap in one storage: true when some element is in both (exact; x[::2] and x[1::2] do not share; a conservative true only past a work bound of 2^24 elements).", builtinSharesMemory)
	defGlobal("device", "device(type, index=none): a device value (cpu; cuda/mps/metal name devices this build cannot use).", builtinDevice)

	globals["inf"] = runtime.Float(math.Inf(1))
	globals["nan"] = runtime.Float(math.NaN())
	globals["pi"] = runtime.Float(math.Pi)
}

// firstTensor returns args[0] when it is a tensor.
func firstTensor(args []runtime.Value) (*TensorValue, bool) {
	if len(args) == 0 {
		return nil, false
	}
	x, ok := args[0].(*TensorValue)
	return x, ok
}
