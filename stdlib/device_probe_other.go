//go:build !((darwin || freebsd || linux || netbsd) && !android && !faketime)

package stdlib

// libraryPresent reports false where tsr has no dynamic loader binding.
func libraryPresent(name string) bool { return false }
