// Package einsum parses einsum equations and plans contractions. It knows
// shapes, never tensors: the compiler uses Parse to check ein"..." literals
// and the tensor runtime executes the plans.
package einsum

// Equation is a parsed einsum equation. (Placeholder: the einsum package
// implementation replaces this file.)
type Equation struct {
	Src string
}

// Parse parses and validates an einsum equation such as "bhid,bhjd->bhij",
// "ii->", "...ij,...jk" or "i...k,k...j->i...j". Errors read like
// "einsum: output index 'k' does not appear in any input".
func Parse(eq string) (*Equation, error) {
	return &Equation{Src: eq}, nil
}
