//go:build linux && amd64

package main

// fmaLoop is implemented in fma_amd64.s.
func fmaLoop(n int)
