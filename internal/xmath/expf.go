package xmath

import "math"

// expfN is the table size of Expf's 2^(i/N) table (glibc's EXP2F_TABLE_BITS = 5).
const expfN = 32

// expfTab[i] is the bit pattern of 2^(i/32) less i << 52 / 32 (glibc's
// __exp2f_data.tab), so adding k << (52 - 5) scales it by 2^(k/32).
var expfTab [expfN]uint64

func init() {
	for i := range expfTab {
		expfTab[i] = math.Float64bits(math.Exp2(float64(i)/expfN)) - uint64(i)<<52/expfN
	}
}

// glibc's __exp2f_data constants for expf.
const (
	expfInvLn2N = 0x1.71547652b82fep+0 * expfN
	expfShift   = 0x1.8p+52
	expfC0      = 0x1.c6af84b912394p-5 / expfN / expfN / expfN
	expfC1      = 0x1.ebfce50fac4f3p-3 / expfN / expfN
	expfC2      = 0x1.62e42ff0c52d6p-1 / expfN
)

// Expf returns e^x for a float32 as glibc's expf computes it (the FMA build
// x86-64 machines select), bit for bit: PyTorch's scalar CPU loops call it
// (std::exp(float)). It is within 0.502 ulp, not correctly rounded.
//
// Algorithm (Szabolcs Nagy, glibc sysdeps/ieee754/flt-32/e_expf.c): in
// float64, x·32/ln2 = k + r with |r| <= 1/2 and k an integer (rounded by
// adding 1.5·2^52), e^x = 2^(k/32) · 2^(r/32) with 2^(k/32) from a
// 32-entry table and 2^(r/32) ≈ C0·r³ + C1·r² + C2·r + 1, then the product
// rounded once to float32.
func Expf(x float32) float32 {
	if a := math.Abs(float64(x)); a >= 88 || x != x {
		switch {
		case math.IsInf(float64(x), -1):
			return 0
		case x != x || math.IsInf(float64(x), 1):
			return x + x
		case x > 0x1.62e42ep6:
			return float32(math.Inf(1))
		case x < -0x1.9fe368p6:
			return 0
		}
	}
	z := expfInvLn2N * float64(x)
	kd := z + expfShift
	ki := math.Float64bits(kd)
	kd -= expfShift
	r := z - kd
	s := math.Float64frombits(expfTab[ki%expfN] + ki<<(52-5))
	p := math.FMA(expfC0, r, expfC1)
	y := math.FMA(expfC2, r, 1)
	y = math.FMA(p, r*r, y)
	return float32(y * s)
}
