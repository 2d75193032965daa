package backends

// Device is a place kernels run and buffers live ("cpu", later "cuda:0",
// "mps"). Only the CPU device exists today; the interface fixes the shape
// accelerator backends will fill in.
type Device interface {
	// Name is the device string used in registry keys and by users ("cpu").
	Name() string
	// Allocator returns the allocator for buffers on this device.
	Allocator() Allocator
	// Synchronize blocks until all work queued on the device has finished
	// (a no-op on the CPU, where kernels are synchronous).
	Synchronize() error
}

// Allocator hands out device buffers. Sizes are in bytes.
type Allocator interface {
	// Alloc returns a buffer of at least nbytes bytes, 64-byte aligned, or an
	// error when the device is out of memory.
	Alloc(nbytes int) (Buffer, error)
	// Free returns b to the allocator; b must not be used afterwards.
	Free(b Buffer)
}

// Buffer is device memory: on the CPU a Go byte slice.
type Buffer interface {
	// Len is the buffer size in bytes.
	Len() int
	// Device is the device the buffer lives on.
	Device() Device
}

// Stream is an ordered queue of device work (CUDA stream, Metal command
// queue). CPU kernels run synchronously and need no stream.
type Stream interface {
	Device() Device
	Synchronize() error
}

// Event marks a point in a Stream that the host or another stream can wait for.
type Event interface {
	Record(s Stream) error
	Wait() error
}

type cpuDevice struct{}

// CPU is the host device.
var CPU Device = cpuDevice{}

func (cpuDevice) Name() string         { return "cpu" }
func (cpuDevice) Allocator() Allocator { return cpuAllocator{} }
func (cpuDevice) Synchronize() error   { return nil }

type cpuAllocator struct{}

// CPUBuffer is a host buffer; Bytes is 64-byte aligned.
type CPUBuffer struct {
	Bytes []byte
}

// Len returns len(b.Bytes).
func (b *CPUBuffer) Len() int { return len(b.Bytes) }

// Device returns CPU.
func (b *CPUBuffer) Device() Device { return CPU }

func (cpuAllocator) Alloc(nbytes int) (Buffer, error) {
	if nbytes < 0 {
		return nil, errNegativeAlloc
	}
	raw := make([]byte, nbytes+64)
	off := 0
	if r := int(uintptrOf(raw)) & 63; r != 0 {
		off = 64 - r
	}
	return &CPUBuffer{Bytes: raw[off : off+nbytes : off+nbytes]}, nil
}

func (cpuAllocator) Free(Buffer) {}
