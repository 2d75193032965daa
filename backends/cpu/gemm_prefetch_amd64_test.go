//go:build amd64 && !purego

package cpu

import "testing"

// TestPrefetchRows checks the bounds of the next-panel prefetch: it points
// at row MR+pfRow only when rows MR+pfRow and MR+pfRow+1 (kc elements each)
// lie inside a, and asks for whole cache lines of kc elements.
func TestPrefetchRows(t *testing.T) {
	const MR, lda, kc = 12, 100, 60
	a := make([]float64, (MR+4)*lda)
	if pf, n := prefetchRows(a, lda, MR, 2, kc); pf != &a[(MR+2)*lda] || n != 8 { // 480 bytes = 7.5 lines
		t.Errorf("rows 14,15: got %p %d, want %p 8", pf, n, &a[(MR+2)*lda])
	}
	if pf, n := prefetchRows(a, lda, MR, -1, kc); pf != nil || n != 0 {
		t.Errorf("pfRow -1: got %p %d, want nil 0", pf, n)
	}
	// Row MR+3 exists but row MR+4 does not.
	if pf, n := prefetchRows(a, lda, MR, 3, kc); pf != nil || n != 0 {
		t.Errorf("rows 15,16 of 16: got %p %d, want nil 0", pf, n)
	}
	// The last row may be short of lda but must hold kc elements.
	b := make([]float32, (MR+1)*lda+kc)
	if pf, n := prefetchRows(b, lda, MR, 0, kc); pf != &b[MR*lda] || n != 4 { // 240 bytes
		t.Errorf("f32 rows 12,13: got %p %d, want %p 4", pf, n, &b[MR*lda])
	}
	if pf, n := prefetchRows(b[:len(b)-1], lda, MR, 0, kc); pf != nil || n != 0 {
		t.Errorf("f32 row 13 one short: got %p %d, want nil 0", pf, n)
	}
}

// TestAPrefetchRow checks which tiles prefetch: the first MR/2 tiles of a
// row of tiles, two rows each, and none when no full next panel follows.
func TestAPrefetchRow(t *testing.T) {
	for _, c := range []struct{ j, ir, mc, want int }{
		{0, 0, 24, 0}, {5, 0, 24, 10}, {6, 0, 24, -1},
		{0, 12, 35, -1}, // rows 24..34 are short of a panel
		{0, 0, 23, -1},
	} {
		if got := aPrefetchRow(c.j, c.ir, c.mc, 12); got != c.want {
			t.Errorf("aPrefetchRow(%d, %d, %d, 12) = %d, want %d", c.j, c.ir, c.mc, got, c.want)
		}
	}
}
