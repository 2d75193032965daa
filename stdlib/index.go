package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// indexItems converts a subscript to tensor index items. Ints, slices,
// ..., none and tuples of them are basic indexing (views); tensors (int or
// bool), lists and bools make the access advanced (a copy).
func indexItems(key runtime.Value) ([]tensor.Index, bool, error) {
	var keys []runtime.Value
	if tup, ok := key.(runtime.Tuple); ok {
		keys = tup
	} else {
		keys = []runtime.Value{key}
	}
	items := make([]tensor.Index, 0, len(keys))
	adv := false
	for _, k := range keys {
		it, isAdv, err := indexItem(k)
		if err != nil {
			return nil, false, err
		}
		adv = adv || isAdv
		items = append(items, it)
	}
	return items, adv, nil
}

func indexItem(k runtime.Value) (tensor.Index, bool, error) {
	switch v := k.(type) {
	case runtime.Int:
		return tensor.At(int(v)), false, nil
	case runtime.Bool:
		t, _ := tensor.FromBools([]bool{bool(v)}, []int{})
		return tensor.Adv(t), true, nil
	case *runtime.Slice:
		start, stop, step := tensor.SliceNone, tensor.SliceNone, 1
		var err error
		if start, err = sliceBound(v.Start, tensor.SliceNone); err != nil {
			return tensor.Index{}, false, err
		}
		if stop, err = sliceBound(v.Stop, tensor.SliceNone); err != nil {
			return tensor.Index{}, false, err
		}
		if step, err = sliceBound(v.Step, 1); err != nil {
			return tensor.Index{}, false, err
		}
		if step == 0 {
			// Python's slice unpacking rejects a zero step before PyTorch sees it.
			return tensor.Index{}, false, runtime.Errorf("ValueError", "slice step cannot be zero")
		}
		if step < 0 {
			return tensor.Index{}, false, runtime.Errorf("ValueError", "step must be greater than zero")
		}
		return tensor.Span(start, stop, step), false, nil
	case runtime.EllipsisType:
		return tensor.Ellipsis(), false, nil
	case runtime.NoneType:
		return tensor.NewAxis(), false, nil
	case *TensorValue:
		if v.t.DType().IsFloat() {
			return tensor.Index{}, false, runtime.Errorf("IndexError", "tensors used as indices must be long, int, byte or bool tensors")
		}
		return tensor.Adv(v.t), true, nil
	case *runtime.List:
		t, err := tensorFromData(v, nil)
		if err != nil {
			return tensor.Index{}, false, err
		}
		if t.Numel() == 0 && t.DType().IsFloat() {
			// x[[]] selects nothing: PyTorch takes the empty list as an
			// (empty) integer index
			if t, err = t.To(tensor.I64); err != nil {
				return tensor.Index{}, false, err
			}
		}
		if t.DType().IsFloat() {
			return tensor.Index{}, false, runtime.Errorf("IndexError", "tensors used as indices must be long, int, byte or bool tensors")
		}
		return tensor.Adv(t), true, nil
	}
	if _, ok := k.(runtime.String); ok { // PyTorch tries to make a tensor of it
		return tensor.Index{}, false, runtime.Errorf("TypeError", "new(): invalid data type 'str'")
	}
	return tensor.Index{}, false, runtime.Errorf("IndexError", "only integers, slices (`:`), ellipsis (`...`), none and long or bool tensors are valid indices (got %s)", k.Type())
}

func sliceBound(v runtime.Value, def int) (int, error) {
	switch b := v.(type) {
	case nil, runtime.NoneType:
		return def, nil
	case runtime.Int:
		return int(b), nil
	case *TensorValue:
		if b.t.Numel() == 1 && !b.t.DType().IsFloat() {
			return int(b.t.FlatInt64(0)), nil
		}
	}
	return 0, runtime.Errorf("TypeError", "slice indices must be integers or none, not %s", v.Type())
}

// Index implements x[key]: basic indexing returns a view (recorded as the
// autograd op "index"); advanced indexing returns a copy whose gradient
// scatter-adds back into x.
func (x *TensorValue) Index(key runtime.Value) (runtime.Value, error) {
	r, err := indexOp(x.eng, x.t, key)
	if err != nil {
		return nil, err
	}
	return wrap(x.eng, r), nil
}

func indexOp(e *Engine, x *T, key runtime.Value) (*T, error) {
	items, adv, err := indexItems(key)
	if err != nil {
		return nil, err
	}
	if !adv {
		r, err := e.Apply("index", []*T{x}, nil, func() (*T, error) { return x.Index(items...) })
		if err == nil {
			autograd.SetGradFnName(r, basicIndexNodeName(items))
		}
		return r, err
	}
	return advancedIndex(e, x, items)
}

// basicIndexNodeName is PyTorch's grad_fn name for x[items]: it applies
// the items one view at a time, so the last one that does something names
// the node (x[0] SelectBackward0, x[1:] SliceBackward0, x[none]
// UnsqueezeBackward0); full slices ":" and "..." are skipped, and an index
// that only aliases x gives AliasBackward0.
func basicIndexNodeName(items []tensor.Index) string {
	name := "AliasBackward0"
	for _, it := range items {
		switch it.Kind {
		case tensor.IdxInt:
			name = "SelectBackward0"
		case tensor.IdxNewAxis:
			name = "UnsqueezeBackward0"
		case tensor.IdxSlice:
			if it.Start != tensor.SliceNone || it.Stop != tensor.SliceNone || it.Step != 1 {
				name = "SliceBackward0"
			}
		}
	}
	return name
}

// advancedIndex gathers x[items] and records a backward that accumulates
// the output gradient into the positions it was read from (repeated
// indices add up, as index_put_ with accumulate=True).
func advancedIndex(e *Engine, x *T, items []tensor.Index) (*T, error) {
	var pos *T
	forward := func() (*T, error) {
		out, err := x.Index(items...)
		if err != nil {
			return nil, err
		}
		if e.GradEnabled() && x.RequiresGrad() && x.DType().IsFloat() {
			ids, err := tensor.ArangeInt(0, int64(x.Numel()), 1, tensor.I64)
			if err != nil {
				return nil, err
			}
			if ids, err = ids.View(x.Shape()...); err != nil {
				return nil, err
			}
			if pos, err = ids.Index(items...); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	shape := append([]int(nil), x.Shape()...)
	dt := x.DType()
	backward := func(g *T) ([]*T, error) {
		return []*T{scatterAdd(g, pos, shape, dt)}, nil
	}
	apply := func(us []*T) (*T, error) { return advancedIndex(e, us[0], items) }
	return e.ApplyLinear("IndexBackward", []*T{x}, forward, backward, apply)
}

// scatterAdd returns a tensor of the given shape and dtype, zero except
// that g's elements are added at the flat positions pos.
func scatterAdd(g, pos *T, shape []int, dt tensor.DType) *T {
	n := 1
	for _, s := range shape {
		n *= s
	}
	buf := make([]float64, n)
	gv := g.ToFloat64s()
	pv := pos.ToInt64s()
	for i, p := range pv {
		buf[p] += gv[i]
	}
	out, _ := tensor.FromFloat64s(buf, shape, dt)
	return out
}

// SetIndex implements x[key] = v as an in-place copy: into the view for
// basic indices (broadcasting v), a scatter for advanced ones. It bumps
// x's version counter and obeys the in-place autograd rules. A tensor v
// that overlaps the written memory is a RuntimeError where PyTorch's is
// (tensor.CheckAssignOverlap, CheckIndexPutOverlap).
func (x *TensorValue) SetIndex(key, v runtime.Value) error {
	return setIndexOp(x.eng, x.t, key, v)
}

func setIndexOp(e *Engine, x *T, key, v runtime.Value) error {
	src, err := valueTensor(v, x.DType())
	if err != nil {
		return err
	}
	// A number becomes a tensor of x's dtype first, with c10's overflow
	// check (PyTorch's valueToTensor): z_i32[0] = 2 ** 40 is an error.
	if err := wrappedFits(src, x.DType()); err != nil {
		return err
	}
	items, adv, err := indexItems(key)
	if err != nil {
		return err
	}
	if !adv {
		view, err := e.Apply("index", []*T{x}, nil, func() (*T, error) { return x.Index(items...) })
		if err != nil {
			return err
		}
		// copy_ semantics: the value's leading size-1 dims are dropped, then
		// it broadcasts to the view (PyTorch's expand errors otherwise)
		return e.ApplyInplace("copy", view, []*T{src}, nil, func() error {
			if err := tensor.CheckAssignOverlap(view, src); err != nil {
				return err
			}
			if src.Dim() == 0 && view.Dim() > 0 {
				// at::indexing::copy_to fills from a 0-d value: fill_
				// writes an expanded view (PyTorch allows it), copy_ not
				return view.FillInplace(src)
			}
			return view.AssignInplace(src)
		})
	}
	// x[mask] = number is masked_fill_ (differentiable; a value that
	// requires grad takes index_put's path, which carries its gradient).
	if len(items) == 1 && items[0].T != nil && items[0].T.DType() == tensor.Bool && src.Numel() == 1 && src.Dim() == 0 &&
		sameShape(items[0].T.Shape(), x.Shape()) && !src.RequiresGrad() {
		mask := items[0].T
		err := e.ApplyInplace("masked_fill", x, []*T{mask}, autograd.Attrs{"value": src.FlatFloat64(0)}, func() error {
			return x.MaskedFillInplace(mask, src)
		})
		if err == nil {
			autograd.SetGradFnName(x, "IndexPutBackward0") // PyTorch records x[mask] = v as index_put_
		}
		return err
	}
	return e.ApplyInplace("index_put", x, []*T{src}, autograd.Attrs{"indices": items}, func() error {
		if err := x.CheckIndexPutOverlap(items, src); err != nil {
			return err
		}
		return x.IndexPut(items, src)
	})
}

// valueTensor converts the right-hand side of an index assignment: a
// tensor, a number (wrapped), or nested lists (converted to dt).
func valueTensor(v runtime.Value, dt tensor.DType) (*T, error) {
	if t, ok := operand(v); ok {
		return t, nil
	}
	switch v.(type) {
	case *runtime.List, runtime.Tuple:
		return tensorFromData(v, &dt)
	}
	return nil, runtime.Errorf("TypeError", "can't assign a %s to a tensor", v.Type())
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
