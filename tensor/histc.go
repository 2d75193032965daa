package tensor

import (
	"math"
	"strconv"
)

// Histc counts t's elements in bins equal-width bins over [min, max]
// (torch.histc), returning a contiguous [bins] tensor of t's dtype. When
// min == max the range is t's own minimum and maximum (widened by 1 on
// each side when those are equal too, or when t is empty). Elements
// outside the range are not counted; the last bin includes max; a NaN
// counts in bin 0, as on PyTorch's x86 CPU kernel.
// Like PyTorch's CPU kernel, an element's bin is
// (x - min) * bins / (max - min) truncated, computed in t's dtype, and
// the counts accumulate in t's dtype (a bf16 count stops at 256).
// Errors (RuntimeError, PyTorch's messages and order): bins <= 0, a
// range that is not finite, max <= min, and dtypes other than f32, f64
// and bf16 ("histogram_cpu" not implemented).
func Histc(t *Tensor, bins int, min, max float64) (*Tensor, error) {
	if bins <= 0 {
		return nil, errorf(RuntimeError, "torch.histogram(): bins must be > 0, but got %d for dimension 0", bins)
	}
	lo, hi := min, max
	if (t.dtype == F32 || t.dtype == F64) && fastPathsOn() {
		if lo == hi && t.Numel() > 0 {
			lo, hi = MinMaxFloat(t)
		}
		if lo == hi {
			lo--
			hi++
		}
		if err := histcRange(lo, hi); err != nil {
			return nil, err
		}
		c := t.Contiguous()
		out := zeros([]int{bins}, t.dtype)
		if t.dtype == F32 {
			histcCount(out.storage.F32()[:bins], c.storage.F32()[c.offset:c.offset+c.Numel()], float32(lo), float32(hi))
		} else {
			histcCount(out.storage.F64()[:bins], c.storage.F64()[c.offset:c.offset+c.Numel()], lo, hi)
		}
		return out, nil
	}
	vals := t.ToFloat64s()
	if lo == hi && len(vals) > 0 {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			if math.IsNaN(v) {
				lo, hi = v, v
				break
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo == hi {
		lo--
		hi++
	}
	if err := histcRange(lo, hi); err != nil {
		return nil, err
	}
	dt := t.dtype
	if dt != F32 && dt != F64 && dt != BF16 {
		return nil, errorf(RuntimeError, "\"histogram_cpu\" not implemented for '%s'", pyTypeName(dt))
	}
	// the bin edges are linspace(lo, hi, bins + 1) in t's dtype: its ends
	// are lo and hi rounded to the dtype
	r := func(v float64) float64 { return RoundToDType(v, dt) }
	left, right := r(lo), r(hi)
	counts := make([]float64, bins)
	nb := float64(bins)
	for _, x := range vals {
		if x < left || x > right {
			continue
		}
		var pos int
		switch {
		case math.IsNaN(x):
			// PyTorch's kernel does not skip NaN: its bin index is
			// int64(NaN), INT64_MIN on x86, which wraps the histogram
			// pointer back onto bin 0
			pos = 0
		case dt == F32:
			pos = int((float32(x) - float32(left)) * float32(nb) / (float32(right) - float32(left)))
		case dt == F64:
			pos = int((x - left) * nb / (right - left))
		default: // bf16: every operation rounds to bf16
			pos = int(r(r(r(x-left)*r(nb)) / r(right-left)))
		}
		if pos >= bins { // the last bin includes max
			pos = bins - 1
		}
		counts[pos] = r(counts[pos] + 1)
	}
	return FromFloat64s(counts, []int{bins}, dt)
}

// CppDouble formats v as C++'s default ostream does (6 significant
// digits, %g style; inf, -inf, nan), for PyTorch's messages.
func CppDouble(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// histcRange is Histc's check of the range [lo, hi] once lo == hi has
// been widened: finite, and lo < hi (PyTorch's messages).
func histcRange(lo, hi float64) error {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return errorf(RuntimeError, "torch.histc: range of [%s, %s] is not finite", CppDouble(lo), CppDouble(hi))
	}
	if !(lo < hi) {
		return errorf(RuntimeError, "torch.histc: max must be larger than min")
	}
	return nil
}

// MinMaxFloat returns the minimum and maximum of a non-empty f32 or f64
// tensor as float64s (NaN, NaN when it holds a NaN): Histc's default
// range, and histogram's. Two vector passes (rowExtreme) over a
// contiguous copy of t.
func MinMaxFloat(t *Tensor) (lo, hi float64) {
	c := t.Contiguous()
	n := c.Numel()
	if t.dtype == F32 {
		return minMaxF(opsF32, c.storage.F32()[c.offset:c.offset+n])
	}
	return minMaxF(opsF64, c.storage.F64()[c.offset:c.offset+n])
}

func minMaxF[T vfloat](k *vecOps[T], x []T) (float64, float64) {
	hi := rowExtreme(k, x, true)
	if hi != hi {
		return float64(hi), float64(hi)
	}
	return float64(rowExtreme(k, x, false)), float64(hi)
}

// histcCount adds to counts (bins of equal width over [left, right], in
// the dtype) one for each x inside: the bin (x - left) * bins / (right -
// left) truncated, all in T as PyTorch's kernel, the last bin including
// right; a NaN counts in bin 0 (see Histc). A count in T stops growing at
// 2^24 (f32) as PyTorch's.
func histcCount[T float32 | float64](counts, x []T, left, right T) {
	nb, w := T(len(counts)), right-left
	last := len(counts) - 1
	for _, v := range x {
		if v < left || v > right {
			continue
		}
		pos := 0
		if v == v {
			pos = min(int((v-left)*nb/w), last)
		}
		counts[pos]++
	}
}
