//go:build !windows

package lapack

import "github.com/ebitengine/purego"

// dlopen loads a shared library (dlopen(3) through purego, no cgo).
func dlopen(name string) (uintptr, error) {
	return purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

// dlsym looks a symbol up in a library loaded by dlopen.
func dlsym(lib uintptr, name string) (uintptr, error) { return purego.Dlsym(lib, name) }
