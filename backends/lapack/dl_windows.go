//go:build windows

package lapack

import "errors"

// errNoDL: loading a system LAPACK DLL is not implemented on Windows; the
// pure-Go gonum engine is used there.
var errNoDL = errors.New("loading a system LAPACK is not supported on windows")

func dlopen(name string) (uintptr, error) { return 0, errNoDL }

func dlsym(lib uintptr, name string) (uintptr, error) { return 0, errNoDL }
