package cpu

//go:generate go run ./internal/gen -out kernels_amd64.s -stubs kernels_amd64_stubs.go -pkg cpu
