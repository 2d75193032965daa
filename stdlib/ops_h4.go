package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// PyTorch 1.13 functions that tsr lacked: i0 (and special.i0, i0_),
// angle for real tensors, isposinf, isneginf, isreal (elementwise,
// registered through unaryFns and predicateFns), positive, and the
// functions of ops_h4_more.go. i0 records I0Backward0 (grad * i1(x)),
// angle AngleBackward0 (a zero gradient on real inputs).
var h4OpsAdded = addH4Ops()

func addH4Ops() bool {
	unaryFns["i0"] = tensor.I0
	unaryFns["angle"] = tensor.Angle
	inplaceUnaryNames = append(inplaceUnaryNames, "i0")
	predicateFns["isposinf"] = tensor.IsPosInf
	predicateFns["isneginf"] = tensor.IsNegInf
	predicateFns["isreal"] = tensor.IsReal
	specialAliases["i0"] = "i0"
	return true
}

func init() {
	defMethodFunc("positive", "positive(): self itself (the same tensor, as torch.positive); RuntimeError for a bool tensor.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("positive", args, kwargs); err != nil {
			return nil, err
		}
		if x.t.DType() == tensor.Bool {
			return nil, runtime.Errorf("RuntimeError", "The `+` operator, on a bool tensor is not supported.")
		}
		return x, nil
	})
}
