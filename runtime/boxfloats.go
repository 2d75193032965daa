package runtime

import "unsafe"

// BoxFloats returns vals as Float Values with one allocation for all of
// their payloads instead of one per value (tolist of a large tensor): each
// Value's data word points into one shared, never-written []Float, as the
// compiler's own boxing points into a fresh one. The Values behave as any
// boxed Float; the shared array stays alive while any of them does.
func BoxFloats(vals []float64) []Value {
	out := make([]Value, len(vals))
	if len(vals) == 0 {
		return out
	}
	slab := make([]Float, len(vals))
	for i, v := range vals {
		slab[i] = Float(v)
	}
	var proto Value = Float(1)
	tab := (*ifaceWords)(unsafe.Pointer(&proto)).tab
	for i := range slab {
		w := (*ifaceWords)(unsafe.Pointer(&out[i]))
		w.tab = tab
		w.data = unsafe.Pointer(&slab[i])
	}
	return out
}

// ifaceWords is the layout of a non-empty interface value: its itab and
// its data pointer.
type ifaceWords struct {
	tab, data unsafe.Pointer
}
