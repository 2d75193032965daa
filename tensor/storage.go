package tensor

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Storage is a flat, untyped CPU buffer that tensors view. The bytes live in
// one 8-byte aligned Go allocation; typed accessors (F32, F64, ...) return
// slices over the whole buffer without copying. All views of a storage share
// its version counter, which every in-place op bumps exactly once.
//
// A storage is not safe for concurrent mutation; distinct storages may be
// used from distinct goroutines freely.
type Storage struct {
	words   []uint64       // backing allocation (keeps the memory alive)
	ptr     unsafe.Pointer // &words[0], or nil when empty
	nbytes  int            // usable bytes (may be less than len(words)*8)
	dtype   DType          // dtype the storage was created for (Len counts these)
	version atomic.Int64
	refs    atomic.Int32 // tensors created over this storage (for Release)
	seq     int64        // allocation number: AllocSeq just after this storage was made
	pooled  bool         // buffer came from / may return to the pool
	freed   bool
	tok     *liveToken // nil when LiveBytes does not track this storage (liveCredit)
}

// liveToken lets the GC cleanup and an explicit release agree on who
// subtracts the storage's bytes from LiveBytes.
type liveToken struct {
	nb   int64
	done atomic.Bool
}

func (t *liveToken) drop() {
	if t.done.CompareAndSwap(false, true) {
		liveBytes.Add(-t.nb)
	}
}

// Device returns "cpu".
func (s *Storage) Device() string { return "cpu" }

// DType returns the dtype the storage was allocated for.
func (s *Storage) DType() DType { return s.dtype }

// Len returns the storage length in elements of its dtype.
func (s *Storage) Len() int { return s.nbytes / s.dtype.ItemSize() }

// NBytes returns the storage size in bytes.
func (s *Storage) NBytes() int { return s.nbytes }

// DataPtr returns the address of the first byte (0 for an empty storage).
// It is stable for the storage's lifetime.
func (s *Storage) DataPtr() uintptr { return uintptr(s.ptr) }

// Version returns the version counter shared by all views of the storage.
func (s *Storage) Version() int64 { return s.version.Load() }

// BumpVersion increments the version counter (called once per in-place op).
func (s *Storage) BumpVersion() { s.version.Add(1) }

// Bytes returns the raw bytes.
func (s *Storage) Bytes() []byte { return unsafe.Slice((*byte)(s.ptr), s.nbytes) }

func typed[T any](s *Storage) []T {
	var z T
	n := s.nbytes / int(unsafe.Sizeof(z))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(s.ptr), n)
}

// F32 returns the buffer as []float32 (length NBytes/4).
func (s *Storage) F32() []float32 { return typed[float32](s) }

// F64 returns the buffer as []float64.
func (s *Storage) F64() []float64 { return typed[float64](s) }

// U16 returns the buffer as []uint16: the bits of f16/bf16 elements.
func (s *Storage) U16() []uint16 { return typed[uint16](s) }

// I8 returns the buffer as []int8.
func (s *Storage) I8() []int8 { return typed[int8](s) }

// I16 returns the buffer as []int16.
func (s *Storage) I16() []int16 { return typed[int16](s) }

// I32 returns the buffer as []int32.
func (s *Storage) I32() []int32 { return typed[int32](s) }

// I64 returns the buffer as []int64.
func (s *Storage) I64() []int64 { return typed[int64](s) }

// U8 returns the buffer as []uint8.
func (s *Storage) U8() []uint8 { return typed[uint8](s) }

// Bools returns the buffer as []bool (each byte must hold 0 or 1).
func (s *Storage) Bools() []bool { return typed[bool](s) }

// ---- allocator ----
//
// Buffers of at least poolMinBytes are rounded up to a size class (four
// classes per power of two) and recycled through a sync.Pool per class.
// A buffer returns to its pool in two ways: at once when its owner says it
// is dead ((*Tensor).Release), or through a finalizer on the buffer's first
// word (armRecycle) once the GC finds nothing pointing into it, which is how
// the interpreter's dropped temporaries come back. Reuse skips the zeroing
// and the first-touch page faults of a fresh allocation: for the seed's
// attention written op by op in tsr (three 134 MB temporaries per call)
// that is about a quarter of the time. A cleanup keeps the LiveBytes
// counter right (small storages are sampled, see liveCredit). sync.Pool
// drops idle buffers at the next GC but one, so the pool never pins memory.

const poolMinBytes = 64 << 10

var (
	statAllocs   atomic.Int64 // storages allocated
	statBytes    atomic.Int64 // bytes requested by those storages
	statHits     atomic.Int64 // allocations served from the pool
	statRecycled atomic.Int64 // buffers the GC finalizer put back in a pool
	liveBytes    atomic.Int64 // bytes of storages not yet collected/released
	pools        [64 * 4]sync.Pool
)

// PoolStats returns allocator counters since program start: number of
// storage allocations, total bytes allocated, and how many allocations were
// served from the buffer pool. A view allocates nothing, so taking views
// leaves all three unchanged.
func PoolStats() (allocs, bytes, hits int64) {
	return statAllocs.Load(), statBytes.Load(), statHits.Load()
}

// AllocSeq returns the number of storages allocated so far in the process.
// A storage allocated after a call returned n has (*Tensor).StorageSeq > n:
// the VM uses it to tell a builtin's fresh result from a tensor that
// existed before the call.
func AllocSeq() int64 { return statAllocs.Load() }

// StorageSeq returns the allocation number of t's storage (see AllocSeq).
func (t *Tensor) StorageSeq() int64 { return t.storage.seq }

// RestoreVersion sets the version counter of t's storage back to v (a
// value Version returned). Only for an in-place computation into a
// temporary nothing else has seen (temporary elision), which must look
// like the out-of-place op it replaces: a new result has version 0.
func (t *Tensor) RestoreVersion(v int64) { t.storage.version.Store(v) }

// LiveBytes returns the bytes held by storages that are still reachable
// (or not yet collected) and not released: exact for storages of at least
// 64 KiB, an unbiased sampled estimate for smaller ones (see liveCredit;
// about 3% relative error over 64 MiB of small storages).
func LiveBytes() int64 { return liveBytes.Load() }

// sizeClass returns the pool class index and rounded byte size for n bytes.
func sizeClass(n int) (int, int) {
	e := bits.Len(uint(n-1)) - 1 // 2^e < n <= 2^(e+1)
	if e < 2 {
		return -1, n
	}
	base := 1 << e
	q := base / 4
	k := (n - base + q - 1) / q // 1..4
	return e*4 + k - 1, base + k*q
}

// pooledBuf is a buffer waiting in a pool. armed reports whether its
// recycling finalizer is still registered (a buffer given back by Release);
// one the finalizer itself pooled must be armed again when handed out.
type pooledBuf struct {
	words []uint64
	armed bool
}

// armRecycle registers a finalizer on the first word of a poolable buffer
// that puts the buffer into its class's pool once nothing references it any
// more: no storage, no view, no slice or pointer into it (the GC's own
// reachability, so the interpreter's dropped temporaries come back without
// any reference counting). The finalizer runs once; the buffer is armed
// again when the pool hands it out.
func armRecycle(words []uint64, cls int) {
	n := len(words)
	runtime.SetFinalizer(&words[0], func(p *uint64) {
		statRecycled.Add(1)
		pools[cls].Put(&pooledBuf{words: unsafe.Slice(p, n)})
	})
}

// newStorage allocates a storage for n elements of dt. When zero is false
// the contents are unspecified (a recycled buffer keeps old values).
func newStorage(dt DType, n int, zero bool) *Storage {
	nb := checkAlloc(dt, n)
	s := &Storage{dtype: dt, nbytes: nb}
	s.seq = statAllocs.Add(1)
	statBytes.Add(int64(nb))
	if nb == 0 {
		return s
	}
	cap := nb
	cls := -1
	if nb >= poolMinBytes {
		cls, cap = sizeClass(nb)
	}
	if cls >= 0 {
		armed := false
		if v := pools[cls].Get(); v != nil {
			pb := v.(*pooledBuf)
			s.words, armed = pb.words, pb.armed
			statHits.Add(1)
			if zero {
				clear(s.words[:(nb+7)/8])
			}
		} else {
			s.words = make([]uint64, (cap+7)/8)
		}
		if !armed {
			armRecycle(s.words, cls)
		}
		s.pooled = true
	}
	if s.words == nil {
		s.words = make([]uint64, (cap+7)/8)
	}
	s.ptr = unsafe.Pointer(&s.words[0])
	if credit := liveCredit(nb); credit > 0 {
		live := liveBytes.Add(credit)
		s.tok = &liveToken{nb: credit}
		runtime.AddCleanup(s, (*liveToken).drop, s.tok)
		if live > liveAlarm.Load() {
			if fn := liveAlarmFn.Load(); fn != nil {
				(*fn)()
			}
		}
	}
	return s
}

// The live-bytes alarm (SetLiveBytesAlarm).
var (
	liveAlarm   atomic.Int64 // the level; math.MaxInt64 when no alarm is set
	liveAlarmFn atomic.Pointer[func()]
)

func init() { liveAlarm.Store(math.MaxInt64) }

// SetLiveBytesAlarm makes every storage allocation that brings LiveBytes
// above level call fn on the allocating goroutine, once the storage is
// counted and before the allocating operation goes on; it replaces the
// alarm set before, and fn == nil removes it. fn may block (the
// interpreter's memory limit forces a garbage collection in it) but must
// not allocate tensors, and it runs on whichever goroutine allocates,
// possibly several at once. Allocations that LiveBytes does not track (see
// LiveBytes) never call it.
func SetLiveBytesAlarm(level int64, fn func()) {
	if fn == nil {
		liveAlarm.Store(math.MaxInt64)
		liveAlarmFn.Store(nil)
		return
	}
	liveAlarmFn.Store(&fn)
	liveAlarm.Store(level)
}

// liveSample is the mean number of small-storage bytes per storage that
// LiveBytes tracks individually.
const liveSample = poolMinBytes

// liveCredit returns the bytes a new storage of nb bytes adds to LiveBytes
// (0: the storage is not tracked). A storage of at least liveSample bytes
// counts exactly. A smaller one is sampled, as Go's heap profiler samples
// allocations: with probability nb/liveSample it counts liveSample bytes,
// else nothing, so LiveBytes stays an unbiased estimate of the live bytes
// (relative standard deviation about sqrt(liveSample/total) over the
// small storages, 3% at 64 MiB) while only one small storage in
// liveSample/nb pays for a GC cleanup, which costs more than allocating
// and computing a tensor of a few elements (~0.7 µs: the runtime keeps a
// sorted list of cleanups per span).
func liveCredit(nb int) int64 {
	if nb >= liveSample {
		return int64(nb)
	}
	if rand.Uint64N(liveSample) < uint64(nb) {
		return liveSample
	}
	return 0
}

// release returns the buffer to the pool. The caller guarantees no tensor or
// slice will read it again.
func (s *Storage) release() {
	if s.freed || s.words == nil {
		return
	}
	s.freed = true
	if s.pooled {
		cls, _ := sizeClass(s.nbytes)
		pools[cls].Put(&pooledBuf{words: s.words, armed: true})
	}
	if s.tok != nil {
		s.tok.drop()
	}
	s.words, s.ptr, s.nbytes = nil, nil, 0
}
