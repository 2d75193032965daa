package tensor

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
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

// Pooled reports whether the storage's buffer came from, and may go back
// to, the allocator's pools (buffers of at least 64 KiB).
func (s *Storage) Pooled() bool { return s.pooled }

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
// classes per power of two) and recycled through a free list per class
// (classPool).
// A buffer returns to its pool in two ways: at once when its owner says it
// is dead ((*Tensor).Release), or through a finalizer on the buffer's first
// word (armRecycle) once the GC finds nothing pointing into it, which is how
// the interpreter's dropped temporaries come back. Reuse skips the zeroing
// and the first-touch page faults of a fresh allocation: for the seed's
// attention written op by op in tsr (three 134 MB temporaries per call)
// that is about a quarter of the time. A cleanup keeps the LiveBytes
// counter right (small storages are sampled, see liveCredit). Idle buffers
// are dropped after two GC cycles, so the pool never pins memory for long;
// a large pool miss may collect early (reclaim).

const poolMinBytes = 64 << 10

var (
	statAllocs      atomic.Int64 // storages allocated
	statBytes       atomic.Int64 // bytes requested by those storages
	statHits        atomic.Int64 // allocations served from the pool
	statReleaseHits atomic.Int64 // those served by a buffer Release gave back
	statRecycled    atomic.Int64 // buffers the GC finalizer put back in a pool
	statRecycBig    atomic.Int64 // those of them reclaim serves (at least reclaimMinBytes)
	liveBytes       atomic.Int64 // bytes of storages not yet collected/released
	pools           [64 * 4]classPool
)

// PoolStats returns allocator counters since program start: number of
// storage allocations, total bytes allocated, and how many allocations were
// served from the buffer pool. A view allocates nothing, so taking views
// leaves all three unchanged.
func PoolStats() (allocs, bytes, hits int64) {
	return statAllocs.Load(), statBytes.Load(), statHits.Load()
}

// ReleaseHits returns how many of PoolStats' hits were buffers that
// (*Tensor).Release gave back (the interpreter's early recycling) rather
// than ones the garbage collector found unreachable.
func ReleaseHits() int64 { return statReleaseHits.Load() }

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
func (t *Tensor) RestoreVersion(v int64) {
	if t.version != nil {
		t.version.Store(v)
		return
	}
	t.storage.version.Store(v)
}

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

// ---- reclaiming dropped buffers early ----
//
// A dropped buffer reaches its pool only after the GC has found it
// unreachable, and Go collects when the heap has grown by GOGC percent:
// a loop that drops a few large temporaries per iteration (the seed's
// attention: two 134 MB tensors) would get every other iteration's
// buffers fresh from the OS, each page faulted in (about 30% of that
// loop's time). So a pool miss for a large buffer (reclaimMinBytes), when
// poolable buffers of at least reclaimFactor times its size have been
// handed out since the last collection, collects at once (runtime.GC,
// about a millisecond with tsr's small pointer heap) and waits briefly
// for the recycling finalizers. A collection that recycles nothing doubles
// the factor for the next miss (a program keeping its tensors alive stops
// paying for collections); one that recycles resets it. Only buffers of at
// least reclaimMinBytes count: small temporaries dropped beside kept large
// tensors must not keep a collection running every other allocation.
// Smaller buffers have kickGC (below) instead.
//
// A collection costs what marking the whole Go heap costs, and a host
// embedding tsr may hold far more pointers than tsr does (half a second
// for a few hundred MB of small objects, against a few milliseconds for
// faulting in a fresh buffer): reclaim times its collections and starts
// one only while the last took at most nb/reclaimBytesPerNs, measuring
// again after reprobeCycles GC cycles.

// reclaimMinBytes was 8 MiB; at 1 MiB the 1-4 MB temporaries of a
// training step (activations, gradients) come back from the GC instead of
// fresh pages: layer_norm forward+backward over 1000x1000 f32 5.2-6.6 ->
// 3.0-3.5 ms, cross_entropy with label smoothing 8.5-10.6 -> 3.9-4.1 ms
// (one thread, bench/opsweep.sh's nn sweep, interleaved).
const (
	reclaimMinBytes = 1 << 20
	reclaimFactor   = 2
	// a fresh buffer costs about 0.5 ns a byte (the kernel zeroes each
	// page at its first touch): collect when that costs no more
	reclaimBytesPerNs = 2
	reprobeCycles     = 16
)

var (
	sinceGC      atomic.Int64 // poolable bytes handed out since the last GC cycle
	reclaimScale atomic.Int64 // current factor (reclaimFactor when 0)
	reclaimMu    sync.Mutex
	gcCycles     atomic.Int64 // GC cycles seen by gcSentinel
	statReclaims atomic.Int64 // collections reclaim started
	lastRecycled atomic.Int64 // statRecycBig at the last cycle
	gcWallNs     atomic.Int64 // wall time of reclaim's last collection
	gcWallCycle  atomic.Int64 // gcCycles when it was measured
)

// gcSentinel's finalizer runs once per GC cycle and re-arms itself: it
// resets sinceGC, the bytes a collection could have found, and drops the
// buffers that waited in a pool through a whole cycle.
type gcSentinel struct{ _ [16]byte }

func armSentinel() {
	runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
		n := gcCycles.Add(1)
		sinceGC.Store(0)
		sinceGCSmall.Store(0)
		// a cycle that recycled buffers ends a back-off (this runs after
		// the cycle's recycling finalizers or before them: the next cycle
		// sees those)
		if r := statRecycBig.Load(); r != lastRecycled.Load() {
			lastRecycled.Store(r)
			reclaimScale.Store(reclaimFactor)
		}
		if pooledLen.Load() > 0 {
			trimPools(n - 1)
		}
		armSentinel()
	})
}

func init() { armSentinel() }

// reclaim is newStorage's pool miss for class cls: it may collect and
// return a buffer the GC found dropped (nil when none).
func reclaim(cls, nb int) *pooledBuf {
	f := max(reclaimScale.Load(), reclaimFactor)
	win := f * int64(nb)
	if nb < reclaimMinBytes || sinceGC.Load() < win || !collectionAffordable(int64(nb)) {
		return nil
	}
	reclaimMu.Lock() // one collection for concurrent misses
	defer reclaimMu.Unlock()
	if pb := pools[cls].get(); pb != nil { // another miss collected meanwhile
		return pb
	}
	if sinceGC.Load() < win {
		return nil
	}
	r0 := statRecycBig.Load()
	statReclaims.Add(1)
	t0 := time.Now()
	runtime.GC()
	gcWallNs.Store(int64(time.Since(t0)))
	gcWallCycle.Store(gcCycles.Load())
	sinceGC.Store(0)
	// The finalizers run on their own goroutine once the collection ends.
	deadline := time.Now().Add(reclaimWait)
	for {
		if pb := pools[cls].get(); pb != nil {
			reclaimScale.Store(reclaimFactor)
			return pb
		}
		if time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
	}
	if statRecycBig.Load() == r0 {
		reclaimScale.Store(min(2*f, 1<<10))
	}
	return nil
}

// collectionAffordable reports whether reclaim may collect for a buffer of
// nb bytes: its last collection took at most nb/reclaimBytesPerNs, or was
// reprobeCycles GC cycles ago.
func collectionAffordable(nb int64) bool {
	return gcWallNs.Load()*reclaimBytesPerNs <= nb || gcCycles.Load()-gcWallCycle.Load() >= reprobeCycles
}

// kickGC starts a collection in the background once gcKickBytes of
// poolable buffers smaller than reclaimMinBytes (reclaim looks after the
// larger ones) have been handed out since the last cycle (one at a
// time, and only while collections are cheap: collectionAffordable). A
// dropped buffer with a finalizer survives the cycle that finds it (it is
// marked for its finalizer), and the buffers the pool then hands out are
// no heap growth to the pacer: left to the pacer, the cycles grow
// geometrically, each marking everything handed out since the one before
// (`w = z + z` over 400 KB in a loop reached 2.6 GB resident, a page fault
// per 4 KB). A cycle per gcKickBytes keeps what a cycle finds, and so the
// pools, that small; the mutator does not wait for it.
//
// The kicked collection runs beside the mutator, so its wall time
// (kickWallNs) is not what a collection costs reclaim, which waits for
// its own: it gates only further kicks, and reclaim keeps its own
// measurement (gcWallNs). Stored there, the 8-17 ms of kicked cycles on a
// busy machine turned reclaim off for 8 MiB+ buffers: 800 iterations of
// four 400 KB and one 16 MB temporary reclaimed 7 times, with up to
// 849 MB of heap in use, against 51 times and 142 MB.
func kickGC() {
	if !collectionAffordable(gcKickBytes) || !kickAffordable() || !gcKicking.CompareAndSwap(false, true) {
		return
	}
	go func() {
		t0 := time.Now()
		kickCollect()
		noteKickWall(time.Since(t0))
		gcKicking.Store(false)
	}()
}

// kickCollect is the collection kickGC runs (a variable for tests).
var kickCollect = runtime.GC

// noteKickWall records the wall time of a kicked collection.
func noteKickWall(d time.Duration) {
	kickWallNs.Store(int64(d))
	kickWallCycle.Store(gcCycles.Load())
}

// kickAffordable reports whether kickGC may collect again: its last
// collection took at most gcKickBytes/reclaimBytesPerNs, or was
// reprobeCycles GC cycles ago.
func kickAffordable() bool {
	return kickWallNs.Load()*reclaimBytesPerNs <= gcKickBytes || gcCycles.Load()-kickWallCycle.Load() >= reprobeCycles
}

// gcKickBytes is how many bytes of poolable buffers kickGC lets pass
// between collections.
const gcKickBytes = 64 << 20

var (
	gcKicking     atomic.Bool  // a kickGC collection is running
	sinceGCSmall  atomic.Int64 // sinceGC's buffers smaller than reclaimMinBytes
	kickWallNs    atomic.Int64 // wall time of kickGC's last collection
	kickWallCycle atomic.Int64 // gcCycles when it was measured
)

// reclaimWait bounds the wait for finalizers after a collection.
const reclaimWait = 2 * time.Millisecond

// classPool is the free list of one size class: LIFO (the most recently
// used buffer is the likeliest to be in cache and TLB), shared by all
// goroutines (a sync.Pool keeps each P's last Put private to that P, where
// the recycling finalizer's Puts would be lost to the allocating
// goroutine). Buffers not taken within two GC cycles are dropped
// (trimPools), so the pool never pins memory for long.
type classPool struct {
	mu   sync.Mutex
	bufs []*pooledBuf
}

func (c *classPool) get() *pooledBuf {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.bufs)
	if n == 0 {
		return nil
	}
	pb := c.bufs[n-1]
	c.bufs[n-1] = nil
	c.bufs = c.bufs[:n-1]
	pooledLen.Add(-1)
	return pb
}

func (c *classPool) put(pb *pooledBuf) {
	pb.cycle = gcCycles.Load()
	c.mu.Lock()
	c.bufs = append(c.bufs, pb)
	pooledLen.Add(1)
	c.mu.Unlock()
}

// full reports whether the pool already holds as many buffers of nb bytes
// as it may (poolClassMaxBytes, poolClassMinCount).
func (c *classPool) full(nb int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.bufs) >= max(poolClassMinCount, poolClassMaxBytes/nb)
}

// A class pool takes a recycled buffer only while it holds fewer than
// max(poolClassMinCount, poolClassMaxBytes/size) of them; the finalizer
// lets any other buffer go (the next cycle frees it). Without the bound a
// pool grew to whatever one long GC cycle had dropped (a GB of 400 KB
// buffers) and stayed that size: LIFO hands every buffer out again before
// a miss, so none ever idled long enough to be trimmed.
const (
	poolClassMaxBytes = 64 << 20
	poolClassMinCount = 8
)

// trimPools drops the buffers pooled before GC cycle `before` (called by
// gcSentinel once per cycle, only while some pool holds buffers).
func trimPools(before int64) {
	for i := range pools {
		c := &pools[i]
		c.mu.Lock()
		keep := c.bufs[:0]
		for _, pb := range c.bufs {
			if pb.cycle >= before {
				keep = append(keep, pb)
			} else {
				pooledLen.Add(-1)
			}
		}
		clear(c.bufs[len(keep):])
		c.bufs = keep
		c.mu.Unlock()
	}
}

// pooledLen counts the buffers in all pools (trimPools skips the scan at 0).
var pooledLen atomic.Int64

// pooledBuf is a buffer waiting in a pool. armed reports whether its
// recycling finalizer is still registered (a buffer given back by Release);
// one the finalizer itself pooled must be armed again when handed out.
type pooledBuf struct {
	words []uint64
	armed bool
	cycle int64 // gcCycles when pooled
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
		if pools[cls].full(n * 8) {
			return
		}
		statRecycled.Add(1)
		if n*8 >= reclaimMinBytes {
			statRecycBig.Add(1)
		}
		pools[cls].put(&pooledBuf{words: unsafe.Slice(p, n)})
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
		pb := pools[cls].get()
		if pb == nil {
			pb = reclaim(cls, nb)
		}
		if pb != nil {
			s.words, armed = pb.words, pb.armed
			statHits.Add(1)
			if armed {
				statReleaseHits.Add(1)
			}
			if zero {
				clear(s.words[:(nb+7)/8])
			}
		} else {
			s.words = make([]uint64, (cap+7)/8)
		}
		sinceGC.Add(int64(cap))
		// A buffer given back by Release (armed) left no garbage behind:
		// only the others bring the next background collection nearer.
		if cap < reclaimMinBytes && !armed && sinceGCSmall.Add(int64(cap)) >= gcKickBytes {
			kickGC()
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
		// a full pool leaves the buffer to its finalizer
		if cls, _ := sizeClass(s.nbytes); !pools[cls].full(len(s.words) * 8) {
			pools[cls].put(&pooledBuf{words: s.words, armed: true})
		}
	}
	if s.tok != nil {
		s.tok.drop()
	}
	s.words, s.ptr, s.nbytes = nil, nil, 0
}
