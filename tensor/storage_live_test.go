package tensor

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// LiveBytes samples small storages: keeping many of them moves it by their
// total within the sampling error, and dropping them moves it back.
func TestLiveBytesSampledSmallStorages(t *testing.T) {
	const (
		count = 20000
		elems = 256 // 1 KiB of f32 each: 20000 KiB kept in all
	)
	runtime.GC()
	runtime.GC()
	before := LiveBytes()
	kept := make([]*Tensor, count)
	for i := range kept {
		x, err := Empty([]int{elems}, F32)
		if err != nil {
			t.Fatal(err)
		}
		kept[i] = x
	}
	want := float64(count * elems * 4)
	got := float64(LiveBytes() - before)
	// Bernoulli(nb/S) credits of S: sd = sqrt(count*(nb/S)*(1-nb/S))*S.
	p := float64(elems*4) / liveSample
	sd := math.Sqrt(count*p*(1-p)) * liveSample
	if math.Abs(got-want) > 5*sd {
		t.Fatalf("LiveBytes grew by %.0f for %.0f bytes of small storages (sd %.0f)", got, want, sd)
	}
	runtime.KeepAlive(kept)
	kept = nil
	for i := 0; i < 10 && LiveBytes()-before > int64(want/10); i++ {
		runtime.GC()
	}
	if d := LiveBytes() - before; d > int64(want/10) {
		t.Fatalf("LiveBytes still %d above the start after dropping the storages", d)
	}
}

// Storages of at least liveSample bytes are counted exactly, and Release
// returns their bytes at once.
func TestLiveBytesExactLargeStorages(t *testing.T) {
	settleLiveBytes()
	x, err := Empty([]int{liveSample / 4}, F32)
	if err != nil {
		t.Fatal(err)
	}
	b0 := LiveBytes()
	y, err := Empty([]int{3 * liveSample / 4}, F32)
	if err != nil {
		t.Fatal(err)
	}
	if d := LiveBytes() - b0; d != 3*liveSample {
		t.Fatalf("a %d-byte storage added %d to LiveBytes", 3*liveSample, d)
	}
	if !y.Release() {
		t.Fatal("release failed")
	}
	if d := LiveBytes() - b0; d != 0 {
		t.Fatalf("after Release LiveBytes is %d off", d)
	}
	runtime.KeepAlive(x)
}

// TestLiveBytesAlarm: the alarm runs on the allocation that brings
// LiveBytes past its level, for every such allocation, and no longer once
// removed.
func TestLiveBytesAlarm(t *testing.T) {
	var calls atomic.Int32
	defer SetLiveBytesAlarm(0, nil)
	SetLiveBytesAlarm(LiveBytes()+(1<<20), func() { calls.Add(1) })
	small, err := Zeros([]int{1 << 17}, F32) // 512 KiB: below the level
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 0 {
		t.Fatalf("alarm ran %d times below its level", calls.Load())
	}
	big, err := Zeros([]int{1 << 18}, F32) // 1 MiB more: past it
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 {
		t.Fatalf("alarm ran %d times, want 1", calls.Load())
	}
	SetLiveBytesAlarm(0, nil)
	more, _ := Zeros([]int{1 << 18}, F32)
	if calls.Load() != 1 {
		t.Fatalf("removed alarm ran (%d calls)", calls.Load())
	}
	runtime.KeepAlive(small)
	runtime.KeepAlive(big)
	runtime.KeepAlive(more)
}

// A large buffer the GC finds unreachable comes back through the pool (no
// Release), and a buffer anything still points into never does: a slice
// kept from a dropped tensor's storage keeps its values while new tensors
// of the same size are allocated and written.
func TestDroppedBuffersAreRecycledOnlyWhenUnreachable(t *testing.T) {
	const n = 1 << 18 // 1 MiB of f32
	alloc := func() *Tensor {
		x, err := Empty([]int{n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	kept := alloc()
	held := kept.Storage().F32()[n/2:] // an interior slice only
	for i := range held {
		held[i] = float32(i)
	}
	kept = nil
	_, _, h0 := PoolStats()
	r0 := statRecycled.Load()
	for round := 0; round < 4; round++ {
		drop := alloc()
		drop.Storage().F32()[0] = 1
		drop = nil
		runtime.GC()
		runtime.GC() // finalizers run after the first
		x := alloc()
		data := x.Storage().F32()
		for i := range data {
			data[i] = -1
		}
		if p := uintptr(unsafe.Pointer(&data[0])); p <= uintptr(unsafe.Pointer(&held[0])) && uintptr(unsafe.Pointer(&held[0])) < p+4*n {
			t.Fatal("a buffer still referenced by a slice was handed out again")
		}
		runtime.KeepAlive(x)
	}
	for i, v := range held {
		if v != float32(i) {
			t.Fatalf("held[%d] = %v after reallocations, want %d", i, v, i)
		}
	}
	if statRecycled.Load() == r0 {
		t.Fatal("no dropped buffer was recycled by the finalizer")
	}
	if _, _, h1 := PoolStats(); h1 == h0 {
		t.Fatal("no allocation was served from recycled buffers")
	}
}

// A loop that drops a large temporary per iteration gets its buffers back
// without waiting for the heap to double (reclaim collects on a miss), and
// a loop that keeps every tensor stops paying for collections (the factor
// backs off).
func TestReclaimOnLargeMiss(t *testing.T) {
	const n = 4 << 20 // 16 MiB of f32
	runtime.GC()
	_, _, h0 := PoolStats()
	for i := 0; i < 20; i++ {
		// collections as cheap as tsr's own heap makes them (what they
		// cost is TestReclaimSkipsCostlyCollections'; under -race, after
		// the package's other tests, one takes 25 ms)
		gcWallNs.Store(0)
		x, err := Empty([]int{n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		x.Storage().F32()[n-1] = 1
	}
	if _, _, h1 := PoolStats(); h1-h0 < 15 {
		t.Fatalf("%d of 20 dropped 16 MiB temporaries came from the pool, want >= 15", h1-h0)
	}

	runtime.GC()
	reclaimScale.Store(reclaimFactor)
	r0 := statReclaims.Load()
	var kept []*Tensor
	for i := 0; i < 24; i++ {
		gcWallNs.Store(0)
		x, err := Empty([]int{n + 1}, F32) // another class: nothing pooled
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, x)
	}
	if r := statReclaims.Load() - r0; r > 5 {
		t.Fatalf("%d collections for 24 kept tensors, want <= 5 (back-off)", r)
	}
	runtime.KeepAlive(kept)
}

// Buffers nobody takes leave the pool after two GC cycles.
func TestPoolTrimmedAfterTwoCycles(t *testing.T) {
	x, err := Empty([]int{1 << 20}, F32)
	if err != nil {
		t.Fatal(err)
	}
	if !x.Release() {
		t.Fatal("release failed")
	}
	if pooledLen.Load() == 0 {
		t.Fatal("released buffer not pooled")
	}
	for i := 0; i < 6 && pooledLen.Load() > 0; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond) // the sentinel's finalizer runs after the cycle
	}
	if n := pooledLen.Load(); n != 0 {
		t.Fatalf("%d buffers still pooled after six GC cycles", n)
	}
}

// A recycled buffer keeps its old bytes, which are not bools: Empty of a
// bool tensor is all false however the buffer was used before (sum, ~ and
// printing disagreed over a byte 0x3f).
func TestEmptyBoolFromRecycledBuffer(t *testing.T) {
	const n = 1 << 18 // 1 MiB of f32, the size of 1 Mi bools
	like := zeros([]int{4 * n}, Bool)
	for round := 0; round < 3; round++ {
		x, err := Full([]int{n}, 0.5, F32) // bytes 00 00 00 3f
		if err != nil {
			t.Fatal(err)
		}
		if !x.Release() {
			t.Fatal("release failed")
		}
		var b *Tensor
		if round == 2 {
			b = EmptyLike(like)
		} else {
			b, _ = Empty([]int{4 * n}, Bool)
		}
		for i, v := range b.Storage().U8() {
			if v > 1 {
				t.Fatalf("round %d: byte %d of an empty bool tensor is %#x", round, i, v)
			}
		}
	}
}

// Kept large tensors beside small temporaries that the GC recycles: the
// small buffers are of no use to reclaim, so they must not end its back-off
// (they did: a collection and a 2 ms wait every other 8 MiB allocation).
func TestReclaimBacksOffBesideSmallTemporaries(t *testing.T) {
	const n = 2<<20 + 1 // 8 MiB of f32 and a bit: a class nothing else uses
	runtime.GC()
	runtime.GC()
	reclaimScale.Store(reclaimFactor)
	gcWallNs.Store(0)
	r0 := statReclaims.Load()
	var kept []*Tensor
	for i := 0; i < 32; i++ {
		gcWallNs.Store(0) // cheap collections (see TestReclaimOnLargeMiss)
		x, err := Empty([]int{n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, x)
		tmp, _ := Empty([]int{1 << 16}, F32) // 256 KiB, dropped
		tmp.Storage().F32()[0] = 1
	}
	if r := statReclaims.Load() - r0; r > 8 {
		t.Fatalf("%d collections for 32 kept tensors beside small temporaries, want <= 8 (back-off)", r)
	}
	runtime.KeepAlive(kept)
}

// A collection that costs more than the fresh allocation it could save is
// not started (a host with a large pointer heap), until reprobeCycles GC
// cycles have passed.
func TestReclaimSkipsCostlyCollections(t *testing.T) {
	const n = 4 << 20 // 16 MiB of f32
	runtime.GC()
	defer gcWallNs.Store(0)
	alloc := func(rounds int) int64 {
		r0 := statReclaims.Load()
		for i := 0; i < rounds; i++ {
			reclaimScale.Store(reclaimFactor)
			x, err := Empty([]int{n + 3}, F32)
			if err != nil {
				t.Fatal(err)
			}
			x.Storage().F32()[0] = 1
		}
		return statReclaims.Load() - r0
	}
	gcWallNs.Store(int64(time.Second)) // as measured in a big host heap
	gcWallCycle.Store(gcCycles.Load())
	if r := alloc(8); r != 0 {
		t.Fatalf("%d collections after one that took a second, want 0", r)
	}
	gcWallCycle.Store(gcCycles.Load() - reprobeCycles) // cycles later
	if r := alloc(8); r == 0 {
		t.Fatal("no collection reprobed its cost")
	}
}

// Goroutines allocate, fill, view, release and drop pooled buffers of
// several size classes while keeping views, reshaped views and raw slices
// of some: whatever is kept must keep its values (a buffer handed out
// again while anything still points into it would be overwritten).
func TestRecycleKeepsReferencedData(t *testing.T) {
	sizes := []int{1 << 14, 1<<14 + 7, 3 << 14, 5 << 16, 1 << 20, 1<<21 + 3}
	iters := 60
	type kept struct {
		t    *Tensor
		raw  []float32
		want float32
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var keep []kept
			for it := 1; it <= iters; it++ {
				n := sizes[(g+it*7)%len(sizes)]
				x := empty([]int{n}, F32)
				val := float32(g<<20 + it)
				d := x.storage.F32()[:n]
				for i := range d {
					d[i] = val
				}
				switch it % 5 {
				case 0:
					keep = append(keep, kept{t: x.view([]int{n / 2}, []int{2}, 1), want: val})
				case 1:
					keep = append(keep, kept{raw: d[n/3 : n/3+5], want: val})
				case 2:
					x.Release()
				case 3:
					if v, err := x.Reshape(n/(1<<14), -1); err == nil {
						v, _ = v.Transpose(0, 1)
						keep = append(keep, kept{t: v, want: val})
					}
				}
				if len(keep) > 10 {
					keep = keep[3:]
				}
				if it%10 == 0 {
					runtime.GC()
				}
				for _, k := range keep {
					vals := k.raw
					if k.t != nil {
						vals = nil
						for i := 0; i < 8; i++ {
							vals = append(vals, float32(k.t.FlatFloat64(i*997)))
						}
					}
					for _, v := range vals {
						if v != k.want {
							errs <- fmt.Sprintf("goroutine %d, iteration %d: kept data holds %v, want %v", g, it, v, k.want)
							return
						}
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// Empty never shows a dropped tensor's values (interpreters sharing a
// process must not see each other's data through recycled buffers).
func TestEmptyDoesNotLeakRecycledData(t *testing.T) {
	const n = 1 << 20
	for round := 0; round < 3; round++ {
		x, err := Empty([]int{n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range x.Storage().F32()[:n] {
			if v != 0 {
				t.Fatalf("round %d: Empty element %d is %v, want 0", round, i, v)
			}
		}
		for i := range x.Storage().F32() {
			x.Storage().F32()[i] = 7
		}
		x = nil
		runtime.GC()
		runtime.GC()
	}
	if statRecycled.Load() == 0 {
		t.Fatal("nothing was recycled: the test did not exercise reuse")
	}
}

// settleLiveBytes collects until LiveBytes stops moving, so that cleanups
// of earlier tests' garbage (they run on their own goroutine after a
// cycle) cannot land inside an exact measurement.
func settleLiveBytes() {
	for i, last := 0, int64(-1); i < 20; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
		v := LiveBytes()
		if v == last {
			return
		}
		last = v
	}
}

// A class pool holds at most max(poolClassMinCount, poolClassMaxBytes/size)
// buffers: it used to keep whatever one long GC cycle had dropped.
func TestPoolClassBounded(t *testing.T) {
	const n = 1<<20 + 5 // 4 MiB of f32: a class of its own
	var xs []*Tensor
	for i := 0; i < 40; i++ {
		x, err := Empty([]int{n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, x)
	}
	for _, x := range xs {
		x.Release()
	}
	cls, size := sizeClass(4 * n)
	pools[cls].mu.Lock()
	got := len(pools[cls].bufs)
	pools[cls].mu.Unlock()
	if want := max(poolClassMinCount, poolClassMaxBytes/size); got != want {
		t.Fatalf("%d buffers pooled after releasing 40, want the bound %d", got, want)
	}
}

// Dropping gcKickBytes of poolable temporaries starts a collection
// (kickGC), which recycles them: without it the pacer let the cycles grow
// geometrically (every buffer handed out from the pool is no heap growth
// to it) and a loop of 400 KB temporaries reached 2.6 GB.
func TestKickGCRecyclesTemporaries(t *testing.T) {
	runtime.GC()
	gcWallNs.Store(0) // collections as cheap as tsr's own heap makes them
	c0 := gcCycles.Load()
	_, _, h0 := PoolStats()
	const n = 100000 // 400 KB of f32
	for i := 0; i < 3*gcKickBytes/(4*n); i++ {
		x, err := Empty([]int{n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		x.Storage().F32()[n-1] = 1
		if i%50 == 0 {
			time.Sleep(time.Millisecond) // let a kicked collection and its finalizers run
		}
	}
	if c := gcCycles.Load() - c0; c < 2 {
		t.Errorf("%d GC cycles while %d MiB of temporaries were dropped, want >= 2", c, 3*gcKickBytes>>20)
	}
	if _, _, h1 := PoolStats(); h1-h0 == 0 {
		t.Error("no temporary came back from the pool")
	}
}

// A kicked collection runs beside the mutator: its wall time must not
// stand for what a collection costs reclaim (which waits for its own), or
// one slow background cycle turns reclaim off and a loop of small and
// large temporaries gets its large buffers fresh. It does make kickGC
// back off.
func TestSlowKickedCollectionKeepsReclaim(t *testing.T) {
	saved := kickCollect
	defer func() { kickCollect = saved }()
	kickCollect = func() {
		time.Sleep(100 * time.Millisecond) // a background cycle slowed by the mutator
		runtime.GC()
	}
	runtime.GC()
	for gcKicking.Load() {
		time.Sleep(time.Millisecond)
	}
	gcWallNs.Store(0) // reclaim's own collections are cheap
	gcWallCycle.Store(gcCycles.Load())
	kickWallNs.Store(0)
	kickGC()
	for gcKicking.Load() {
		time.Sleep(time.Millisecond)
	}
	if !collectionAffordable(reclaimMinBytes) {
		t.Errorf("after a 100 ms kicked collection reclaim may not collect for %d MiB (gcWallNs %v)", reclaimMinBytes>>20, time.Duration(gcWallNs.Load()))
	}
	if kickAffordable() {
		t.Errorf("kickGC does not back off after a 100 ms collection (kickWallNs %v)", time.Duration(kickWallNs.Load()))
	}
}
