package autograd

import "github.com/tsrlang/tsr/tensor"

// rot90 (Rot90Backward0, as PyTorch): the gradient is the output gradient
// rotated back, rot90(grad, -k, dims), recorded so that it is
// differentiable again. Attrs: "k" and "dims" (the two dims, as given).
func init() {
	def(&Function{Name: "rot90", Backward: func(c *Ctx, gs []*T) ([]*T, error) {
		k, dims := -c.Int("k", 1), c.Ints("dims")
		g := g0(gs)
		gi, err := c.E.Apply("rot90", []*T{g}, Attrs{"k": k, "dims": dims}, func() (*T, error) { return tensor.Rot90(g, k, dims) })
		return []*T{gi}, err
	}})
}
