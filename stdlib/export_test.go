package stdlib

// ScaleFolds returns how many einsum scales were folded into a GEMM.
func ScaleFolds() int64 { return scaleFolds.Load() }
