//go:build !amd64

package main

func fmaLoop(n int) { panic("fmapeak: amd64 only") }
