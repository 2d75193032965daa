package tensor

// Rot90 rotates t by 90 degrees k times in the plane of dims[0] and
// dims[1], from the first towards the second (torch.rot90; any k, taken
// modulo 4). t needs at least 2 dims; the two dims may be negative but
// must name two different dims. The result is a new tensor laid out as PyTorch's: k = 1 and 3
// are flip followed by a transposition of the flipped copy (so the
// result is transposed in d0, d1), k = 2 is flip (a dense t's layout),
// k = 0 is a contiguous clone. Errors (RuntimeError, PyTorch's messages):
// len(dims) != 2, fewer than 2 dims, equal dims, dims out of range.
func Rot90(t *Tensor, k int, dims []int) (*Tensor, error) {
	n := len(t.shape)
	if len(dims) != 2 {
		return nil, errorf(RuntimeError, "expected total rotation dims == 2, but got dims = %d", len(dims))
	}
	if n < 2 {
		return nil, errorf(RuntimeError, "expected total dims >= 2, but got total dims = %d", n)
	}
	d0, d1 := dims[0], dims[1]
	if d0 == d1 || abs(d0-d1) == n {
		return nil, errorf(RuntimeError, "expected rotation dims to be different, but got dim0 = %d and dim1 = %d", d0, d1)
	}
	if d0 >= n || d0 < -n {
		return nil, errorf(RuntimeError, "Rotation dim0 out of range, dim0 = %d", d0)
	}
	if d1 >= n || d1 < -n {
		return nil, errorf(RuntimeError, "Rotation dim1 out of range, dim1 = %d", d1)
	}
	if d0 < 0 {
		d0 += n
	}
	if d1 < 0 {
		d1 += n
	}
	switch (4 + k%4) % 4 {
	case 1:
		f, err := Flip(t, []int{d1})
		if err != nil {
			return nil, err
		}
		return f.Transpose(d0, d1)
	case 2:
		return Flip(t, []int{d0, d1})
	case 3:
		f, err := Flip(t, []int{d0})
		if err != nil {
			return nil, err
		}
		return f.Transpose(d0, d1)
	}
	return t.Clone(), nil
}
