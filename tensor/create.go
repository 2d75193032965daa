package tensor

import (
	"math"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Creation functions. All return new contiguous tensors; shapes with a
// negative size are a RuntimeError.

// ScalarFloat wraps a Python float as a 0-d f64 tensor marked as a wrapped
// number: in binary ops it does not upcast a float tensor (f16 tensor * 0.5
// stays f16) and turns an integer or bool tensor into the default float.
func ScalarFloat(v float64) *Tensor {
	t := zeros(nil, F64)
	t.storage.F64()[0] = v
	t.wrapped = true
	return t
}

// ScalarInt wraps a Python int as a 0-d i64 wrapped number (see ScalarFloat).
func ScalarInt(v int64) *Tensor {
	t := zeros(nil, I64)
	t.storage.I64()[0] = v
	t.wrapped = true
	return t
}

// ScalarBool wraps a Python bool as a 0-d bool wrapped number.
func ScalarBool(v bool) *Tensor {
	t := zeros(nil, Bool)
	t.storage.Bools()[0] = v
	t.wrapped = true
	return t
}

func checkData(n int, shape []int) error {
	if err := checkShape(shape); err != nil {
		return err
	}
	if numel(shape) != n {
		return errorf(ValueError, "data of %d elements does not match shape %s", n, fmtList(shape))
	}
	return nil
}

// FromFloat64s builds a tensor of dtype dt and the given shape from data in
// C order (converted like To). len(data) must equal the shape's numel
// (ValueError otherwise).
func FromFloat64s(data []float64, shape []int, dt DType) (*Tensor, error) {
	if err := checkData(len(data), shape); err != nil {
		return nil, err
	}
	src := newTensor(newStorage(F64, len(data), false), append([]int(nil), shape...), contiguousStrides(shape), 0, F64)
	copy(src.storage.F64(), data)
	return src.toDType(dt), nil
}

// FromFloat32s builds an f32 tensor (no conversion when dt is F32).
func FromFloat32s(data []float32, shape []int, dt DType) (*Tensor, error) {
	if err := checkData(len(data), shape); err != nil {
		return nil, err
	}
	src := newTensor(newStorage(F32, len(data), false), append([]int(nil), shape...), contiguousStrides(shape), 0, F32)
	copy(src.storage.F32(), data)
	return src.toDType(dt), nil
}

// FromInt64s builds a tensor of dtype dt from integers in C order.
func FromInt64s(data []int64, shape []int, dt DType) (*Tensor, error) {
	if err := checkData(len(data), shape); err != nil {
		return nil, err
	}
	src := newTensor(newStorage(I64, len(data), false), append([]int(nil), shape...), contiguousStrides(shape), 0, I64)
	copy(src.storage.I64(), data)
	return src.toDType(dt), nil
}

// FromBools builds a bool tensor from data in C order.
func FromBools(data []bool, shape []int) (*Tensor, error) {
	if err := checkData(len(data), shape); err != nil {
		return nil, err
	}
	t := empty(shape, Bool)
	copy(t.storage.Bools(), data)
	return t, nil
}

// Empty returns a tensor whose contents the caller must not rely on
// (torch.empty). It is zero-filled: its storage may be a recycled buffer
// (see the allocator in storage.go), and handing out a dropped tensor's
// old values would leak data between interpreters sharing a process (a
// host running untrusted programs) and give bool tensors bytes other than
// 0 and 1. Only a recycled buffer is cleared; a fresh one is zero already.
// Internal kernels that overwrite their output allocate without clearing.
func Empty(shape []int, dt DType) (*Tensor, error) {
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	return zeros(shape, dt), nil
}

// Zeros returns a zero-filled tensor.
func Zeros(shape []int, dt DType) (*Tensor, error) {
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	return zeros(shape, dt), nil
}

// Ones returns a tensor filled with 1.
func Ones(shape []int, dt DType) (*Tensor, error) { return Full(shape, 1, dt) }

// Full returns a tensor filled with v converted to dt.
func Full(shape []int, v float64, dt DType) (*Tensor, error) {
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	t := empty(shape, dt)
	fillRaw(t, v)
	return t, nil
}

// FullInt is Full for an integer fill value (exact for all of i64).
func FullInt(shape []int, v int64, dt DType) (*Tensor, error) {
	if !dt.IsInt() {
		return Full(shape, float64(v), dt)
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	t := empty(shape, dt)
	s := newTensor(newStorage(I64, 1, false), nil, nil, 0, I64)
	s.storage.I64()[0] = v
	b, _ := s.Expand(shape...)
	castInto(t, b)
	return t, nil
}

// fillRaw writes v into every element of t (no version bump).
func fillRaw(t *Tensor, v float64) {
	s := newTensor(newStorage(F64, 1, false), nil, nil, 0, F64)
	s.storage.F64()[0] = v
	b, _ := s.Expand(t.shape...)
	castInto(t, b)
}

// ZerosLike returns Zeros(t.Shape(), t.DType()).
func ZerosLike(t *Tensor) *Tensor { return zeros(t.shape, t.dtype) }

// OnesLike returns Ones(t.Shape(), t.DType()).
func OnesLike(t *Tensor) *Tensor { o, _ := Full(t.shape, 1, t.dtype); return o }

// EmptyLike returns Empty(t.Shape(), t.DType()).
func EmptyLike(t *Tensor) *Tensor { return zeros(t.shape, t.dtype) }

// FullLike returns Full(t.Shape(), v, t.DType()).
func FullLike(t *Tensor, v float64) *Tensor { o, _ := Full(t.shape, v, t.dtype); return o }

// arangeLen is PyTorch's length rule ceil((end-start)/step), with checks.
func arangeLen(start, end, step float64) (int, error) {
	if step == 0 {
		return 0, errorf(RuntimeError, "step must be nonzero")
	}
	if math.IsNaN(start) || math.IsNaN(end) || math.IsInf(start, 0) || math.IsInf(end, 0) {
		return 0, errorf(RuntimeError, "unsupported range: %v -> %v", start, end)
	}
	if (step > 0 && end < start) || (step < 0 && end > start) {
		return 0, errorf(RuntimeError, "upper bound and larger bound inconsistent with step sign")
	}
	n := math.Ceil((end - start) / step)
	if n > 1<<40 {
		return 0, errorf(RuntimeError, "arange: too many elements (%v)", n)
	}
	return int(n), nil
}

// Arange returns start, start+step, ... below end (above for step < 0):
// ceil((end-start)/step) elements of dtype dt. f32 and f64 values are
// ATen's arange kernel's as built (AVX2, FMA-contracted): whole pairs of
// V-lane blocks (V = 32 bytes / element size) start at base =
// fma(step, i, start) in f64 rounded to dt, lane j being fma(j, step,
// base) in f64 rounded to dt; the rest is fma(step, i, start) in f64
// rounded once (testdata/range_torch.json pins them); f16 and bf16 follow
// the same scheme in f32 (arangeFillHalf). Other dtypes take
// start + i*step in f64. The caller picks dt (PyTorch: i64 when all arguments are ints,
// else the default float). step 0 or a sign that cannot reach end is a
// RuntimeError.
func Arange(start, end, step float64, dt DType) (*Tensor, error) {
	n, err := arangeLen(start, end, step)
	if err != nil {
		return nil, err
	}
	switch dt {
	case F32, F64:
		if err := allocCheck(dt, n); err != nil {
			return nil, err
		}
		t := empty([]int{n}, dt)
		if dt == F32 {
			arangeFill(t.storage.F32(), start, step)
		} else {
			arangeFill(t.storage.F64(), start, step)
		}
		return t, nil
	}
	if err := allocCheck(F64, n); err != nil { // the f64 staging buffer
		return nil, err
	}
	buf := make([]float64, n)
	if dt == F16 || dt == BF16 {
		arangeFillHalf(buf, start, step, dt)
	} else {
		for i := range buf {
			buf[i] = start + float64(i)*step
		}
	}
	return FromFloat64s(buf, []int{n}, dt)
}

// arangeFillHalf is ATen's f16/bf16 arange (acc type float): start and
// step rounded to f32; whole pairs of 16-lane blocks start at base =
// fmaf(step, i, start) rounded to dt, lane j being base + j*step (each
// operation rounded to f32, not fused) rounded to dt; the rest is
// fmaf(step, i, start) rounded to dt. o gets
// the values (exact in dt) as float64.
func arangeFillHalf(o []float64, start, step float64, dt DType) {
	s32, st32 := float64(float32(start)), float64(float32(step))
	fmaf := func(a, b, c float64) float64 { return float64(float32(math.FMA(a, b, c))) }
	const v = 16
	n := len(o)
	i := 0
	for ; i < n/(2*v)*(2*v); i += v {
		base := RoundToDType(fmaf(st32, float64(i), s32), dt)
		for j := 0; j < v; j++ {
			o[i+j] = RoundToDType(float64(float32(base+float64(float32(float64(j)*st32)))), dt)
		}
	}
	for ; i < n; i++ {
		o[i] = RoundToDType(fmaf(st32, float64(i), s32), dt)
	}
}

// arangeFill is ATen's f32/f64 arange: acc (f64) arithmetic, V-lane
// blocks from a base rounded to T (Vectorized<T>::arange(base, step)),
// the products fused as the compiler contracts them.
func arangeFill[T float32 | float64](o []T, start, step float64) {
	var z T
	v := 32 / int(unsafe.Sizeof(z))
	n := len(o)
	i := 0
	for ; i < n/(2*v)*(2*v); i += v {
		base := float64(T(math.FMA(step, float64(i), start)))
		blk := o[i : i+v]
		for j := range blk {
			blk[j] = T(math.FMA(float64(j), step, base))
		}
	}
	for ; i < n; i++ {
		o[i] = T(math.FMA(step, float64(i), start))
	}
}

// ArangeInt is Arange with exact integer arithmetic (for i64 and friends).
func ArangeInt(start, end, step int64, dt DType) (*Tensor, error) {
	if step == 0 {
		return nil, errorf(RuntimeError, "step must be nonzero")
	}
	if (step > 0 && end < start) || (step < 0 && end > start) {
		return nil, errorf(RuntimeError, "upper bound and larger bound inconsistent with step sign")
	}
	// Count in float64 first: end-start can overflow int64.
	if span := (float64(end) - float64(start)) / float64(step); span > 1<<53 {
		return nil, allocError(math.MaxInt64)
	}
	// ceil(|end-start| / |step|) in uint64: end-start and -step can both
	// overflow int64 (arange(-2**63+1, 2**63-1, 2**62) has 4 elements).
	var span, ustep uint64
	if step > 0 {
		span, ustep = uint64(end)-uint64(start), uint64(step)
	} else {
		span, ustep = uint64(start)-uint64(end), -uint64(step)
	}
	var n int64
	if span > 0 {
		n = int64((span-1)/ustep + 1)
	}
	if dt == I64 {
		if err := allocCheck(I64, int(n)); err != nil {
			return nil, err
		}
		t := empty([]int{int(n)}, I64)
		o := t.storage.I64()
		for i := range o {
			o[i] = start + int64(i)*step
		}
		return t, nil
	}
	if err := allocCheck(I64, int(n)); err != nil { // the i64 staging buffer
		return nil, err
	}
	buf := make([]int64, n)
	for i := range buf {
		buf[i] = start + int64(i)*step
	}
	return FromInt64s(buf, []int{int(n)}, dt)
}

// Linspace returns steps evenly spaced values from start to end inclusive
// (PyTorch's symmetric formula: the first half counts up from start, the
// second half down from end). steps < 0 is a RuntimeError.
func Linspace(start, end float64, steps int, dt DType) (*Tensor, error) {
	if steps < 0 {
		return nil, errorf(RuntimeError, "number of steps must be non-negative")
	}
	if (dt == F32 || dt == F64) && steps > 1 {
		if err := allocCheck(dt, steps); err != nil {
			return nil, err
		}
		t := empty([]int{steps}, dt)
		if dt == F64 {
			linspaceF64(t.storage.F64(), start, end)
		} else {
			linspaceF32(t.storage.F32(), float32(start), float32(end))
		}
		return t, nil
	}
	if err := allocCheck(F64, steps); err != nil { // the f64 staging buffer
		return nil, err
	}
	buf := make([]float64, steps)
	if steps == 1 {
		buf[0] = start
	} else if steps > 1 {
		if dt.IsFloat() {
			linspaceHalf(buf, start, end, dt)
		} else {
			linspaceInt(buf, start, end, dt)
		}
	}
	return FromFloat64s(buf, []int{steps}, dt)
}

// Eye returns an n x m matrix with ones on the main diagonal (m < 0 means
// m = n).
func Eye(n, m int, dt DType) (*Tensor, error) {
	if m < 0 {
		m = n
	}
	if n < 0 {
		return nil, errorf(RuntimeError, "n must be greater or equal to 0, got %d", n)
	}
	if err := checkShape([]int{n, m}); err != nil {
		return nil, err
	}
	t := zeros([]int{n, m}, dt)
	for i := 0; i < min(n, m); i++ {
		storeF64(t.storage, dt, i*m+i, 1)
	}
	return t, nil
}

// Generator is a seeded random source, one per interpreter: PyTorch's
// CPUGeneratorImpl (mt19937 seeded as at::mt19937, plus the cached second
// Box-Muller sample), so manual_seed(s) followed by rand, randn, randint,
// randperm, uniform_ or normal_ gives PyTorch's values. It is not safe for
// concurrent use.
type Generator struct {
	mt         mt19937
	nextNormal float64 // cached r*sin(theta) of normal_distribution<double>
	hasNormal  bool
	seed       uint64 // the last seed given to ManualSeed (initial_seed)
}

// errNilGenerator is the ValueError of a sampling function given a nil
// *Generator (there is no package-wide default: a Generator is not safe
// for concurrent use).
func errNilGenerator(fn string) error {
	return errorf(ValueError, "%s: nil *Generator (make one with NewGenerator)", fn)
}

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	g := &Generator{}
	g.ManualSeed(seed)
	return g
}

// ManualSeed reseeds g (PyTorch's manual_seed: the engine is seeded with
// the low 32 bits and the cached normal sample is dropped).
func (g *Generator) ManualSeed(seed uint64) {
	g.mt.seed(uint32(seed))
	g.hasNormal = false
	g.seed = seed
}

// random is CPUGeneratorImpl::random (32 bits).
func (g *Generator) random() uint32 { return g.mt.next() }

// random64 is CPUGeneratorImpl::random64: two draws, the first the high half.
func (g *Generator) random64() uint64 {
	hi := g.mt.next()
	lo := g.mt.next()
	return uint64(hi)<<32 | uint64(lo)
}

// Float64 returns a uniform value in [0, 1) (53 bits, as
// uniform_real_distribution<double>).
func (g *Generator) Float64() float64 {
	return float64(g.random64()&(1<<53-1)) * 0x1p-53
}

// uniformBits is the dtype's mantissa width (std::numeric_limits::digits).
func uniformBits(dt DType) uint {
	switch dt {
	case F64:
		return 53
	case F16:
		return 11
	case BF16:
		return 8
	}
	return 24
}

// uniform01 is uniform_real_distribution<dt>(0, 1): one 32-bit draw (two
// for f64) masked to the mantissa width and scaled, exact in the dtype.
func (g *Generator) uniform01(dt DType) float64 {
	if dt == F64 {
		return g.Float64()
	}
	bits := uniformBits(dt)
	return float64(g.random()&(1<<bits-1)) / float64(uint64(1)<<bits) // exact: a power of two
}

// uniform is uniform_real_distribution<dt>(from, to): x * (to - from) +
// from with from, to cast to the dtype, computed in the dtype's
// accumulation type (f64 for f64, else f32) as one fused multiply-add, as
// PyTorch's CPU build (compiled with FMA contraction) does.
func (g *Generator) uniform(dt DType, from, to float64) float64 {
	x := g.uniform01(dt)
	if dt == F64 {
		return math.FMA(x, to-from, from)
	}
	f, t := float32(RoundToDType(from, dt)), float32(RoundToDType(to, dt))
	w := t - f
	if dt != F32 {
		w = float32(RoundToDType(float64(w), dt))
	}
	return RoundToDType(float64(cpu.FMA32(float32(x), w, f)), dt)
}

// normal is at::normal_distribution<double>: Box-Muller on two f64
// uniforms, returning r*cos(theta) and caching r*sin(theta) for the next
// call.
func (g *Generator) normal(mean, std float64) float64 {
	if g.hasNormal {
		g.hasNormal = false
		return g.nextNormal*std + mean
	}
	u1 := g.Float64()
	u2 := g.Float64()
	r := math.Sqrt(-2 * math.Log(1-u2))
	theta := 2 * math.Pi * u1
	g.nextNormal, g.hasNormal = r*math.Sin(theta), true
	return r*math.Cos(theta)*std + mean
}

// Rand returns uniform samples in [0, 1) of float dtype dt (a non-float
// dtype is a RuntimeError, as PyTorch's).
func Rand(g *Generator, shape []int, dt DType) (*Tensor, error) {
	return Uniform(g, shape, dt, 0, 1)
}

// Uniform returns samples of uniform_(from, to) in float dtype dt, drawn
// in row-major order as PyTorch's serial CPU kernel. A nil g is a
// ValueError (so for Rand, Randn, Normal and Randint).
func Uniform(g *Generator, shape []int, dt DType, from, to float64) (*Tensor, error) {
	if g == nil {
		return nil, errNilGenerator("Uniform")
	}
	if !dt.IsFloat() {
		return nil, errorf(RuntimeError, "\"check_uniform_bounds\" not implemented for '%s'", pyTypeName(dt))
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	if dt == F32 { // g.uniform with the bounds converted once
		t := empty(shape, F32)
		d := t.storage.F32()[:t.Numel()]
		// uniform01(F32), a 624-word twist block at a time
		g.mt.uniformF32(d)
		if f, w := float32(from), float32(to)-float32(from); f != 0 || w != 1 { // x·1 + 0 is x
			for i, x := range d {
				r, ok := cpu.FMA32Quick(x, w, f)
				if !ok {
					r = cpu.FMA32(x, w, f)
				}
				d[i] = r
			}
		}
		return t, nil
	}
	t := empty(shape, F64)
	d := t.storage.F64()[:t.Numel()]
	for i := range d {
		d[i] = g.uniform(dt, from, to)
	}
	return t.toDType(dt), nil
}

// Randn returns standard normal samples of float dtype dt.
func Randn(g *Generator, shape []int, dt DType) (*Tensor, error) {
	return Normal(g, shape, dt, 0, 1)
}

// Normal returns samples of normal_(mean, std) in float dtype dt for a
// contiguous tensor of the given shape, as PyTorch's CPU normal_kernel:
// with 16 or more elements, normal_fill (all uniforms of the dtype first,
// then Box-Muller on blocks of 16: u1 = 1 - d[j], u2 = d[j+8]; a ragged
// tail redraws and transforms the last 16; f32 in the arithmetic of
// normal_fill_16_AVX2, see normalF32 and cpu.NormalFill16F32); below 16, one
// normal_distribution<double> sample per element.
func Normal(g *Generator, shape []int, dt DType, mean, std float64) (*Tensor, error) {
	if g == nil {
		return nil, errNilGenerator("Normal")
	}
	if !dt.IsFloat() {
		return nil, errorf(RuntimeError, "\"normal_kernel_cpu\" not implemented for '%s'", pyTypeName(dt))
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	if dt == F32 && numel(shape) >= 16 {
		t := empty(shape, F32)
		normalF32(g, t.storage.F32()[:t.Numel()], float32(mean), float32(std))
		return t, nil
	}
	t := empty(shape, F64)
	d := t.storage.F64()[:t.Numel()]
	n := len(d)
	if n < 16 {
		for i := range d {
			d[i] = RoundToDType(g.normal(mean, std), dt)
		}
		return t.toDType(dt), nil
	}
	round := func(v float64) float64 {
		if dt == F64 {
			return v
		}
		return RoundToDType(v, dt)
	}
	fill16 := func(b []float64) {
		for j := 0; j < 8; j++ {
			u1 := round(1 - b[j])
			u2 := b[j+8]
			radius := round(math.Sqrt(-2 * math.Log(u1)))
			theta := round(2 * math.Pi * u2)
			b[j] = round(round(radius*math.Cos(theta))*std + mean)
			b[j+8] = round(round(radius*math.Sin(theta))*std + mean)
		}
	}
	for i := range d {
		d[i] = g.uniform01(dt)
	}
	// The transforms are independent once the uniforms are drawn.
	parallelTasks(n/16, 16*64, parallelGrain, func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			fill16(d[16*b : 16*b+16])
		}
	})
	if n%16 != 0 {
		tail := d[n-16:]
		for i := range tail {
			tail[i] = g.uniform01(dt)
		}
		fill16(tail)
	}
	return t.toDType(dt), nil
}

// Randint returns integers uniform in [low, high) with dtype dt;
// high <= low is a RuntimeError. As PyTorch's random_from_to: a 32-bit
// draw (64-bit when the range is 2^32 or more) modulo the range.
func Randint(g *Generator, low, high int64, shape []int, dt DType) (*Tensor, error) {
	if g == nil {
		return nil, errNilGenerator("Randint")
	}
	if high <= low {
		return nil, errorf(RuntimeError, "random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", low, high)
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	t := empty(shape, I64)
	d := t.storage.I64()
	span := uint64(high - low)
	for i := range d[:t.Numel()] {
		var v uint64
		if span >= 1<<32 {
			v = g.random64()
		} else {
			v = uint64(g.random())
		}
		d[i] = low + int64(v%span)
	}
	return t.toDType(dt), nil
}

// Randperm returns a random permutation of 0..n-1 as PyTorch's
// randperm_cpu: for i < n-1, swap r[i] with r[i + random() % (n-i)]. g
// must not be nil.
func Randperm(g *Generator, n int) []int64 {
	r := make([]int64, n)
	for i := range r {
		r[i] = int64(i)
	}
	for i := 0; i < n-1; i++ {
		z := int(uint64(g.random()) % uint64(n-i))
		r[i], r[i+z] = r[i+z], r[i]
	}
	return r
}

// linspaceF64 and linspaceF32 reproduce ATen's linspace kernel as PyTorch's
// CPU build runs it (AVX2 kernels, compiled with FMA contraction): step =
// (end - start) / (steps - 1) in the dtype; the output is produced in
// blocks of two vectors (4 doubles / 8 floats each) whose first element
// is fma(step, i, start) below steps/2 and fma(-step, steps-1-i, end)
// from there on, the other lanes base + step*j (rounded twice); the tail
// that fills no full pair of vectors is element-wise fma. This makes
// linspace(0, 1, 1001)[11] 0.011 and linspace(-1, 1, 7)[3] -2.98e-08 in
// f32, bit for bit as PyTorch.
func linspaceF64(buf []float64, start, end float64) {
	const V = 4
	n := len(buf)
	step := (end - start) / float64(n-1)
	elem := func(i int) float64 {
		if i < n/2 {
			return math.FMA(step, float64(i), start)
		}
		return math.FMA(-step, float64(n-1-i), end)
	}
	var lane [V]float64 // step*j, as Vectorized::arange's lanes
	for j := range lane {
		lane[j] = step * float64(j)
	}
	i := 0
	for ; i < n/(2*V)*(2*V); i += V { // whole pairs of vectors
		base := elem(i)
		blk := (*[V]float64)(buf[i : i+V])
		for j, l := range lane {
			blk[j] = base + l
		}
	}
	for ; i < n; i++ {
		buf[i] = elem(i)
	}
}

func linspaceF32(buf []float32, start, end float32) {
	const V = 8
	n := len(buf)
	step := (end - start) / float32(n-1)
	elem := func(i int) float32 {
		a, b, c := step, float32(i), start
		if i >= n/2 {
			a, b, c = -step, float32(n-1-i), end
		}
		if r, ok := cpu.FMA32Quick(a, b, c); ok { // inlined: the common case
			return r
		}
		return cpu.FMA32(a, b, c)
	}
	var lane [V]float32 // step*j, as Vectorized::arange's lanes
	for j := range lane {
		lane[j] = step * float32(j)
	}
	// whole pairs of vectors: the blocks starting in the first half count
	// up from start (k = i), the others down from end (k = n-1-i)
	// (block indices are int32 in the kernel: past that, elementwise)
	m := n / (2 * V) * (2 * V)
	if n > math.MaxInt32 {
		m = 0
	}
	h := min(m, (n/2+V-1)/V*V)
	cpu.ArangeBlocksF32(buf[:h], 0, V, step, start, &lane)
	cpu.ArangeBlocksF32(buf[h:m], n-1-h, -V, -step, end, &lane)
	i := m
	for ; i < n; i++ {
		buf[i] = elem(i)
	}
}

// linspaceInt is ATen's linspace kernel for integer dtypes: start and end
// truncated to integers, step = (end - start) / (n-1) in f64; whole pairs
// of V-lane blocks (V = 32 bytes / element size) start at base =
// trunc(fma(step, i, start)) (or trunc(fma(-step, n-1-i, end)) in the
// second half), lane j being trunc(base + j*step) (Vectorized<int>::
// arange, not fused); the rest is trunc(fma(step, i, start)) or trunc(fma(-step,
// n-1-i, end)). The results are integral values (exact in f64).
func linspaceInt(buf []float64, start, end float64, dt DType) {
	v := 32 / dt.ItemSize()
	n := len(buf)
	s, e := math.Trunc(start), math.Trunc(end)
	step := (e - s) / float64(n-1)
	elem := func(i int) float64 {
		if i < n/2 {
			return math.Trunc(math.FMA(step, float64(i), s))
		}
		return math.Trunc(math.FMA(-step, float64(n-1-i), e))
	}
	i := 0
	for ; i < n/(2*v)*(2*v); i += v {
		base := elem(i)
		for j := 0; j < v; j++ {
			buf[i+j] = math.Trunc(base + float64(float64(j)*step))
		}
	}
	for ; i < n; i++ {
		buf[i] = elem(i)
	}
}

// linspaceHalf is ATen's linspace kernel for f16/bf16: every operation is
// rounded to the dtype (c10::Half/BFloat16 arithmetic, integers converted
// to the dtype too), in blocks of two 16-lane vectors as linspaceF32.
func linspaceHalf(buf []float64, start, end float64, dt DType) {
	const V = 16
	r := func(x float32) float32 { return float32(RoundToDType(float64(x), dt)) }
	n := len(buf)
	s0, e0 := r(float32(start)), r(float32(end))
	step := r(r(e0-s0) / r(float32(n-1)))
	elem := func(i int) float32 {
		if i < n/2 {
			return r(s0 + r(step*r(float32(i))))
		}
		return r(e0 - r(step*r(float32(n-1-i))))
	}
	i := 0
	for ; i < n/(2*V)*(2*V); i += V {
		base := elem(i)
		for j := 0; j < V; j++ {
			buf[i+j] = float64(r(base + r(r(float32(j))*step)))
		}
	}
	for ; i < n; i++ {
		buf[i] = float64(elem(i))
	}
}
