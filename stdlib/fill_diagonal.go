package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
)

// fill_diagonal_ (PyTorch 1.13's Tensor.fill_diagonal_, aten/src/ATen/
// native/Fill.cpp): fills the main diagonal of a tensor of two or more
// dims (all of equal length beyond two) in place through an as_strided
// view, so autograd records the write as CopySlices; with wrap=true a
// tall matrix's diagonal restarts every width+1 rows.
func init() {
	defMethod("fill_diagonal_", "fill_diagonal_(fill_value, wrap=false): fill the main diagonal in place (2-D, or all dims of equal length); with wrap a tall matrix's diagonal restarts after width+1 rows. Returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var fill runtime.Value
		wrap := false
		if err := runtime.UnpackArgs("fill_diagonal_", args, kwargs, "fill_value", &fill, "wrap?", &wrap); err != nil {
			return nil, err
		}
		t := x.t
		shape, strides := t.Shape(), t.Strides()
		if len(shape) < 2 {
			return nil, runtime.Errorf("RuntimeError", "dimensions must larger than 1")
		}
		h, w := shape[0], shape[1]
		if len(shape) > 2 {
			for _, n := range shape[1:] {
				if n != h {
					return nil, runtime.Errorf("RuntimeError", "all dimensions of input must be of equal length")
				}
			}
		}
		stride := 0
		for _, s := range strides {
			stride += s
		}
		size := min(h, w)
		fillView := func(n, offset int) error {
			v, err := callMethod(th, x, "as_strided", []runtime.Value{intList([]int{n}), intList([]int{stride}), runtime.MakeInt(int64(offset))}, nil)
			if err != nil {
				return err
			}
			_, err = callMethod(th, v, "fill_", []runtime.Value{fill}, nil)
			return err
		}
		if err := fillView(size, t.StorageOffset()); err != nil {
			return nil, err
		}
		if wrap && len(shape) == 2 && h > w+1 {
			step := w + 1
			n := (t.Numel()+step-1)/step - size
			if err := fillView(n, t.StorageOffset()+strides[0]*(w+1)); err != nil {
				return nil, err
			}
		}
		return x, nil
	})
}
