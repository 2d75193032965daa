package tensor

import "math"

// More float-valued unary ops (PyTorch names): integer and bool inputs
// give the default float dtype, f16/bf16 compute in f32, as the others in
// unary.go.

var (
	uLog2    = &unaryDef{name: "log2", f: math.Log2}
	uLog10   = &unaryDef{name: "log10", f: math.Log10}
	uAsin    = &unaryDef{name: "asin", f: math.Asin}
	uAcos    = &unaryDef{name: "acos", f: math.Acos}
	uAtan    = &unaryDef{name: "atan", f: math.Atan}
	uSinh    = &unaryDef{name: "sinh", f: math.Sinh}
	uCosh    = &unaryDef{name: "cosh", f: math.Cosh}
	uAsinh   = &unaryDef{name: "asinh", f: math.Asinh}
	uAcosh   = &unaryDef{name: "acosh", f: math.Acosh}
	uAtanh   = &unaryDef{name: "atanh", f: math.Atanh}
	uExp2    = &unaryDef{name: "exp2", f: math.Exp2}
	uDeg2Rad = &unaryDef{name: "deg2rad", f: func(x float64) float64 { return x * (math.Pi / 180) },
		f32: func(x float32) float32 { return x * float32(math.Pi/180) }}
	uRad2Deg = &unaryDef{name: "rad2deg", f: func(x float64) float64 { return x * (180 / math.Pi) },
		f32: func(x float32) float32 { return x * float32(180/math.Pi) }}
	uSinc = &unaryDef{name: "sinc", f: func(x float64) float64 {
		if x == 0 {
			return 1
		}
		p := math.Pi * x
		return math.Sin(p) / p
	}, f32: func(x float32) float32 {
		if x == 0 {
			return 1
		}
		p := float32(math.Pi) * x // PyTorch computes in float: sinc(1) is -2.7828e-08, not 0
		return float32(math.Sin(float64(p))) / p
	}}
)

// Log2 returns log2(t).
func Log2(t *Tensor) (*Tensor, error) { return unary(uLog2, t) }

// Log10 returns log10(t).
func Log10(t *Tensor) (*Tensor, error) { return unary(uLog10, t) }

// Asin returns arcsin(t) (NaN outside [-1, 1]).
func Asin(t *Tensor) (*Tensor, error) { return unary(uAsin, t) }

// Acos returns arccos(t) (NaN outside [-1, 1]).
func Acos(t *Tensor) (*Tensor, error) { return unary(uAcos, t) }

// Atan returns arctan(t).
func Atan(t *Tensor) (*Tensor, error) { return unary(uAtan, t) }

// Sinh returns sinh(t).
func Sinh(t *Tensor) (*Tensor, error) { return unary(uSinh, t) }

// Cosh returns cosh(t).
func Cosh(t *Tensor) (*Tensor, error) { return unary(uCosh, t) }

// Asinh returns arsinh(t).
func Asinh(t *Tensor) (*Tensor, error) { return unary(uAsinh, t) }

// Acosh returns arcosh(t) (NaN below 1).
func Acosh(t *Tensor) (*Tensor, error) { return unary(uAcosh, t) }

// Atanh returns artanh(t) (±inf at ±1, NaN outside).
func Atanh(t *Tensor) (*Tensor, error) { return unary(uAtanh, t) }

// Exp2 returns 2**t.
func Exp2(t *Tensor) (*Tensor, error) { return unary(uExp2, t) }

// Deg2Rad returns t * pi/180.
func Deg2Rad(t *Tensor) (*Tensor, error) { return unary(uDeg2Rad, t) }

// Rad2Deg returns t * 180/pi.
func Rad2Deg(t *Tensor) (*Tensor, error) { return unary(uRad2Deg, t) }

// Sinc returns the normalized sinc sin(pi t)/(pi t), 1 at 0.
func Sinc(t *Tensor) (*Tensor, error) { return unary(uSinc, t) }

// SincGrad is d sinc(x)/dx = (cos(pi x) pi x - sin(pi x)) / (pi x^2),
// 0 at x = 0 (PyTorch's sinc_backward), in x's float dtype.
func SincGrad(t *Tensor) (*Tensor, error) {
	return unary(&unaryDef{name: "sinc_backward", f: func(x float64) float64 {
		if x == 0 {
			return 0
		}
		p := math.Pi * x
		return (math.Cos(p)*p - math.Sin(p)) / (p * x)
	}}, t)
}
