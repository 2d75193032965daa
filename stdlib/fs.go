package stdlib

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tsrlang/tsr/runtime"
)

// FSPolicy decides which files a tsr program may read and write through
// io.load, io.save and the plot module. The host installs one per thread with
// SetFSPolicy; without one every file-system call fails with a
// PermissionError, so embedding tsr never grants disk access by accident.
type FSPolicy interface {
	// Check vets path (as the program wrote it, relative to the process
	// working directory when not absolute) for reading (write=false) or
	// writing (write=true). It returns the cleaned absolute path the caller
	// must use for the operation, or an error of kind PermissionError
	// (ValueError for an empty path).
	Check(path string, write bool) (string, error)
}

// fsKey is the Thread.SetLocal key of the file-system policy.
const fsKey = "stdlib.fs"

// SetFSPolicy installs p as th's file-system policy; nil disables file
// access again (the default).
func SetFSPolicy(th *runtime.Thread, p FSPolicy) {
	if th == nil {
		return
	}
	if p == nil {
		th.SetLocal(fsKey, nil)
		return
	}
	th.SetLocal(fsKey, p)
}

// errFSDisabled is the error of every file operation on a thread without a
// policy.
const errFSDisabled = "file-system access is disabled; the host must grant directories"

// checkPath applies th's policy to path for the builtin fname.
func checkPath(th *runtime.Thread, fname, path string, write bool) (string, error) {
	var p FSPolicy
	if th != nil {
		p, _ = th.Local(fsKey).(FSPolicy)
	}
	if p == nil {
		return "", runtime.Errorf("PermissionError", "%s: %s", fname, errFSDisabled)
	}
	abs, err := p.Check(path, write)
	if err != nil {
		var ke interface{ ErrorKind() string }
		if errors.As(err, &ke) {
			return "", runtime.Errorf(ke.ErrorKind(), "%s: %s", fname, err.Error())
		}
		return "", runtime.Errorf("PermissionError", "%s: %v", fname, err)
	}
	return abs, nil
}

// AllowAll returns a policy that grants every path, for trusted programs
// (the tsr command line). Check only makes the path absolute and clean.
func AllowAll() FSPolicy { return allowAll{} }

type allowAll struct{}

func (allowAll) Check(path string, write bool) (string, error) {
	if path == "" {
		return "", runtime.Errorf("ValueError", "empty path")
	}
	return filepath.Abs(path)
}

// AllowDirs returns a policy that grants the files inside dirs (and their
// subdirectories), for reading and writing. Each dir is made absolute and its
// symbolic links resolved once, here. Check resolves the symbolic links of
// the longest existing prefix of a path before comparing, so a link inside a
// granted directory that points outside it is refused.
//
// Limitation: the check and the later open are two steps; a program that can
// also replace directories with symbolic links between them (another process
// working in the granted tree) could race it. Hosts that need that guarantee
// should grant a directory no one else writes to.
func AllowDirs(dirs ...string) FSPolicy {
	p := allowDirs{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		p.dirs = append(p.dirs, resolveExisting(abs))
	}
	return p
}

type allowDirs struct{ dirs []string }

func (p allowDirs) Check(path string, write bool) (string, error) {
	if path == "" {
		return "", runtime.Errorf("ValueError", "empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", runtime.Errorf("PermissionError", "cannot resolve %q: %v", path, err)
	}
	resolved := resolveExisting(abs)
	for _, d := range p.dirs {
		if within(resolved, d) {
			return resolved, nil
		}
	}
	if len(p.dirs) == 0 {
		return "", runtime.Errorf("PermissionError", "%s", errFSDisabled)
	}
	return "", runtime.Errorf("PermissionError", "permission denied: '%s' is outside the directories granted by the host (%s)", path, strings.Join(p.dirs, ", "))
}

// within reports whether path is dir or inside it (both absolute and clean).
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolveExisting resolves the symbolic links of the longest prefix of abs
// that exists and appends the remaining (not yet existing) components.
func resolveExisting(abs string) string {
	abs = filepath.Clean(abs)
	rest := ""
	cur := abs
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		} else if !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
			return abs
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs
		}
		if rest == "" {
			rest = filepath.Base(cur)
		} else {
			rest = filepath.Join(filepath.Base(cur), rest)
		}
		cur = parent
	}
}

func isNotDir(err error) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return errors.Is(pe.Err, os.ErrNotExist) || strings.Contains(pe.Err.Error(), "not a directory")
	}
	return false
}
