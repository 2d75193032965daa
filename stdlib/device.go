package stdlib

import (
	goruntime "runtime"
	"sync"

	"github.com/tsrlang/tsr/runtime"
)

// Modules cuda and metal: the device API of LANGUAGE.md section 8 for a
// build whose tensors live only on the CPU. is_available() is false and
// device_count() 0 (so portable programs can branch on them, as in
// PyTorch); everything that needs a device (synchronize, Event, Stream,
// current_device, get_device_name) raises a RuntimeError that says why:
// the driver library is missing, or it is present but this build has no
// kernels for it. When a GPU backend lands, it replaces these members.

// accel describes one accelerator API for the error messages.
type accel struct {
	mod     string // module name: "cuda", "metal"
	display string // "CUDA", "Metal"
	lib     string // driver library probed for the message
	osOnly  string // GOOS the API exists on ("" = any)

	once    sync.Once
	present bool
}

var (
	cudaAccel  = &accel{mod: "cuda", display: "CUDA", lib: cudaDriverLib()}
	metalAccel = &accel{mod: "metal", display: "Metal", lib: "/System/Library/Frameworks/Metal.framework/Metal", osOnly: "darwin"}
)

// cudaDriverLib is the CUDA driver library's name on this OS.
func cudaDriverLib() string {
	if goruntime.GOOS == "windows" {
		return "nvcuda.dll"
	}
	return "libcuda.so.1"
}

// unavailable returns the RuntimeError of member fname: why the device
// cannot be used on this machine with this build.
func (a *accel) unavailable(fname string) error {
	if a.osOnly != "" && goruntime.GOOS != a.osOnly {
		return runtime.Errorf("RuntimeError", "%s.%s: %s is not available: it runs only on macOS, this is %s", a.mod, fname, a.display, goruntime.GOOS)
	}
	a.once.Do(func() { a.present = libraryPresent(a.lib) })
	if !a.present {
		return runtime.Errorf("RuntimeError", "%s.%s: %s is not available: %s driver library %s not found", a.mod, fname, a.display, a.display, a.lib)
	}
	return runtime.Errorf("RuntimeError", "%s.%s: %s is not available: %s is present, but this tsr build has no %s backend (tensors live on the cpu)", a.mod, fname, a.display, a.lib, a.display)
}

func init() {
	for _, a := range []*accel{cudaAccel, metalAccel} {
		a := a
		raise := func(name, sig, doc string, params ...string) *runtime.Builtin {
			return moduleFunc(a.mod, name, sig+": "+doc, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
				// Check the arguments first, so misuse is reported as such.
				vals := make([]runtime.Value, len(params))
				pairs := make([]any, 0, 2*len(params))
				for i, p := range params {
					pairs = append(pairs, p, &vals[i])
				}
				if err := runtime.UnpackArgs(a.mod+"."+name, args, kwargs, pairs...); err != nil {
					return nil, err
				}
				return nil, a.unavailable(name)
			})
		}
		registerModule(a.mod, a.display+" devices. This build runs tensors on the cpu only: is_available() is false and device_count() is 0; the other members raise RuntimeError.", map[string]runtime.Value{
			"is_available": moduleFunc(a.mod, "is_available", "is_available(): whether a "+a.display+" device can be used (false: this build has no "+a.display+" backend).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
				if err := runtime.UnpackArgs(a.mod+".is_available", args, kwargs); err != nil {
					return nil, err
				}
				return runtime.Bool(false), nil
			}),
			"device_count": moduleFunc(a.mod, "device_count", "device_count(): the number of usable "+a.display+" devices (0).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
				if err := runtime.UnpackArgs(a.mod+".device_count", args, kwargs); err != nil {
					return nil, err
				}
				return runtime.MakeInt(0), nil
			}),
			"synchronize":     raise("synchronize", "synchronize(device=none)", "wait for all queued work on the device; RuntimeError without a device.", "device?"),
			"current_device":  raise("current_device", "current_device()", "the index of the current device; RuntimeError without a device."),
			"get_device_name": raise("get_device_name", "get_device_name(device=none)", "the device's name; RuntimeError without a device.", "device?"),
			"Event":           raise("Event", "Event(enable_timing=false, blocking=false)", "a device event with record() and elapsed_time(other) (ms); RuntimeError without a device.", "enable_timing?", "blocking?"),
			"Stream":          raise("Stream", "Stream(device=none, priority=0)", "a device work queue; RuntimeError without a device.", "device?", "priority?"),
		})
	}
}
