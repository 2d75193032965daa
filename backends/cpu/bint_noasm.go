//go:build !amd64 || purego

package cpu

func registerBinTAsm() {}
