package stdlib

// ScaleFolds returns how many einsum scales were folded into a GEMM.
func ScaleFolds() int64 { return scaleFolds.Load() }

// AttentionFusions returns how many attention idioms ran fused.
func AttentionFusions() int64 { return attentionFusions.Load() }
