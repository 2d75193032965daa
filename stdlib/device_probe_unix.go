//go:build (darwin || freebsd || linux || netbsd) && !android && !faketime

package stdlib

import "github.com/ebitengine/purego"

// libraryPresent reports whether the dynamic loader can open name (a probe
// only: the library is closed again at once).
func libraryPresent(name string) bool {
	h, err := purego.Dlopen(name, purego.RTLD_LAZY|purego.RTLD_LOCAL)
	if err != nil || h == 0 {
		return false
	}
	_ = purego.Dlclose(h)
	return true
}
