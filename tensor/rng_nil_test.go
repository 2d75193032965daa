package tensor

import (
	"errors"
	"testing"
)

// TestNilGenerator: the sampling functions return a ValueError for a nil
// *Generator instead of dereferencing it.
func TestNilGenerator(t *testing.T) {
	calls := map[string]func() (*Tensor, error){
		"Rand":         func() (*Tensor, error) { return Rand(nil, []int{4}, F32) },
		"Uniform":      func() (*Tensor, error) { return Uniform(nil, []int{4}, F64, 0, 1) },
		"Randn":        func() (*Tensor, error) { return Randn(nil, []int{32}, F32) },
		"Normal":       func() (*Tensor, error) { return Normal(nil, []int{4}, F64, 0, 1) },
		"Randint":      func() (*Tensor, error) { return Randint(nil, 0, 5, []int{4}, I64) },
		"FromUniforms": func() (*Tensor, error) { return FromUniforms(nil, []int{4}, F32, func(u float64) float64 { return u }) },
	}
	for name, call := range calls {
		x, err := call()
		var te *Error
		if x != nil || !errors.As(err, &te) || te.Kind != ValueError {
			t.Errorf("%s(nil generator) = %v, %v; want a ValueError", name, x, err)
		}
	}
}
