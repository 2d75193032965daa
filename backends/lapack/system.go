package lapack

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ebitengine/purego"
)

// libraryCandidates lists the shared libraries tried, in order. OpenBLAS is
// preferred over a plain liblapack.so.3 because the latter may be the
// reference LAPACK on top of the reference BLAS (correct but slow). On
// Debian/Ubuntu, `apt-get install libopenblas0-pthread` provides both
// libopenblas.so.0 and (through update-alternatives) liblapack.so.3.
func libraryCandidates() []string {
	names := []string{"libopenblas.so.0", "libopenblas.so"}
	for _, dir := range []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib", "/opt/OpenBLAS/lib"} {
		for _, sub := range []string{"openblas-pthread", "openblas-openmp", "openblas-serial", ""} {
			d := filepath.Join(dir, sub)
			names = append(names, filepath.Join(d, "libopenblas.so.0"))
			if m, _ := filepath.Glob(filepath.Join(d, "libopenblasp-r0.*.so")); len(m) > 0 {
				names = append(names, m...)
			}
		}
	}
	names = append(names, "liblapack.so.3", "liblapack.so", "libopenblas.dylib", "/opt/homebrew/opt/openblas/lib/libopenblas.dylib", "/usr/local/opt/openblas/lib/libopenblas.dylib")
	return names
}

// sysKernels holds the Fortran LAPACK entry points for one element type
// (the d- or s-routines). Integers are 32-bit (LP64). The trailing uintptr
// arguments are gfortran's hidden lengths of the character arguments.
type sysKernels[T Float] struct {
	gesddF func(jobz *byte, m, n *int32, a *T, lda *int32, s, u *T, ldu *int32, vt *T, ldvt *int32, work *T, lwork, iwork, info *int32, ljobz uintptr)
	syevdF func(jobz, uplo *byte, n *int32, a *T, lda *int32, w, work *T, lwork, iwork, liwork, info *int32, ljobz, luplo uintptr)
	geevF  func(jobvl, jobvr *byte, n *int32, a *T, lda *int32, wr, wi, vl *T, ldvl *int32, vr *T, ldvr *int32, work *T, lwork, info *int32, ljobvl, ljobvr uintptr)
	potrfF func(uplo *byte, n *int32, a *T, lda, info *int32, luplo uintptr)
	getrfF func(m, n *int32, a *T, lda, ipiv, info *int32)
	getrsF func(trans *byte, n, nrhs *int32, a *T, lda, ipiv *int32, b *T, ldb, info *int32, ltrans uintptr)
	geqrfF func(m, n *int32, a *T, lda *int32, tau, work *T, lwork, info *int32)
	orgqrF func(m, n, k *int32, a *T, lda *int32, tau, work *T, lwork, info *int32)
	gelsdF func(m, n, nrhs *int32, a *T, lda *int32, b *T, ldb *int32, s, rcond *T, rank *int32, work *T, lwork, iwork, info *int32)
}

// bind resolves the routines with prefix p ("d" or "s") in lib.
func (k *sysKernels[T]) bind(lib uintptr, p string) error {
	syms := []struct {
		name string
		fn   any
	}{
		{"gesdd_", &k.gesddF}, {"syevd_", &k.syevdF}, {"geev_", &k.geevF},
		{"potrf_", &k.potrfF}, {"getrf_", &k.getrfF}, {"getrs_", &k.getrsF},
		{"geqrf_", &k.geqrfF}, {"orgqr_", &k.orgqrF},
		{"gelsd_", &k.gelsdF},
	}
	for _, s := range syms {
		addr, err := dlsym(lib, p+s.name)
		if err != nil || addr == 0 {
			return fmt.Errorf("symbol %s%s not found", p, s.name)
		}
		purego.RegisterFunc(s.fn, addr)
	}
	return nil
}

// loadSystem opens the first library of names that exports every routine.
func loadSystem(names []string) (*engine, error) {
	var tried []string
	for _, name := range names {
		lib, err := dlopen(name)
		if err != nil {
			tried = append(tried, name)
			continue
		}
		k64, k32 := &sysKernels[float64]{}, &sysKernels[float32]{}
		if err := k64.bind(lib, "d"); err != nil {
			tried = append(tried, name+" ("+err.Error()+")")
			continue
		}
		if err := k32.bind(lib, "s"); err != nil {
			tried = append(tried, name+" ("+err.Error()+")")
			continue
		}
		kind := "lapack"
		if addr, err := dlsym(lib, "openblas_get_config"); err == nil && addr != 0 {
			kind = "openblas"
		}
		path := name
		if addr, err := dlsym(lib, "dgesdd_"); err == nil {
			if p := mappedFile(addr); p != "" {
				path = p
			}
		}
		return &engine{name: kind + " (" + path + ")", f64: k64, f32: k32}, nil
	}
	return nil, newErr(KindRuntime, "lapack", 0, "system LAPACK not found (tried %s); install one, e.g. apt-get install libopenblas0-pthread", strings.Join(tried, ", "))
}

// mappedFile returns the file mapped at address addr, from /proc/self/maps
// (Linux only; "" elsewhere or when not found).
func mappedFile(addr uintptr) string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		l, err1 := strconv.ParseUint(lo, 16, 64)
		h, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h {
			return fields[5]
		}
	}
	return ""
}
