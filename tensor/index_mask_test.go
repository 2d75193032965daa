package tensor

import "testing"

// TestMaskSelectsLastElements guards the branch-free mask gather: the last
// selected element (and a selection at the very end of a long row) must be
// copied, not left zero.
func TestMaskSelectsLastElements(t *testing.T) {
	for _, n := range []int{5, 63, 64, 65, 100003} {
		x, _ := ArangeInt(0, int64(n), 1, I64)
		mask, _ := Gt(x, ScalarInt(int64(n-3)))
		got, err := x.Index(Adv(mask))
		if err != nil {
			t.Fatal(err)
		}
		v := got.ToInt64s()
		if len(v) != 2 || v[0] != int64(n-2) || v[1] != int64(n-1) {
			t.Fatalf("n=%d: x[x > n-3] = %v, want [%d %d]", n, v, n-2, n-1)
		}
	}
}
