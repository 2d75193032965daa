//go:build !amd64 || purego

package cpu

func registerKernelsAsm() {}
func registerHalfAsm()    {}
func registerRowsAsm()    {}
func registerRoundAsm()   {}
