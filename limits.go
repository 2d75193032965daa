package tsr

import (
	"context"
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// memPoll is how often the memory watcher samples tensor.LiveBytes while a
// program with a MaxMemory runs. The VM notices the resulting Cancel at the
// next loop back edge or call, so a program stops well within 100 ms.
const memPoll = 2 * time.Millisecond

// Stop reasons recorded before the interpreter cancels its thread.
const (
	stopNone int32 = iota
	stopCtx
	stopMemory
)

// guard runs f (a top-level entry into the VM) under the interpreter's
// context and memory limit and gives the errors their host-facing causes.
// A nested entry (a registered Go function calling back into the
// interpreter) runs f directly under the outer run's guard.
func (in *Interpreter) guard(ctx context.Context, f func() (runtime.Value, error)) (runtime.Value, error) {
	if in.depth > 0 {
		return f()
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Kind: "Cancelled", Msg: err.Error(), Cause: err}
	}
	in.th.ResetCancel()
	in.depth++
	in.ctx = ctx
	defer func() {
		in.depth--
		in.ctx = nil
	}()

	var reason atomic.Int32
	var peak atomic.Int64

	// Context cancellation: context.AfterFunc runs the callback in its own
	// goroutine; if stop() reports that it already started, wait for it so
	// that a late Cancel cannot leak into the next run.
	var ctxDone chan struct{}
	stopCtxWatch := func() bool { return true }
	if ctx.Done() != nil {
		ctxDone = make(chan struct{})
		stopCtxWatch = context.AfterFunc(ctx, func() {
			defer close(ctxDone)
			if reason.CompareAndSwap(stopNone, stopCtx) {
				in.th.Cancel(ctx.Err().Error())
			}
		})
	}

	var memDone chan struct{}
	var memExited chan struct{}
	if in.opts.MaxMemory > 0 {
		r := &memRun{in: in, reason: &reason, peak: &peak}
		addMemRun(r)
		defer removeMemRun(r)
		memDone = make(chan struct{})
		memExited = make(chan struct{})
		go r.watch(memDone, memExited)
	}

	v, err := f()

	if !stopCtxWatch() {
		<-ctxDone
	}
	if memDone != nil {
		close(memDone)
		<-memExited
		// The watcher samples every memPoll: a program whose last
		// statements allocate past the limit can end before it looks,
		// or before it notices the watcher's Cancel.
		if err == nil {
			switch reason.Load() {
			case stopNone:
				if used, over := in.overMemory(); over {
					peak.Store(used)
					reason.Store(stopMemory)
					err = &Error{Kind: "Cancelled", Msg: "memory limit exceeded"}
				}
			case stopMemory:
				err = &Error{Kind: "Cancelled", Msg: "memory limit exceeded"}
			}
		}
	}
	return v, in.classify(err, ctx, reason.Load(), peak.Load())
}

// overMemory reports whether the tensor storage counted against the
// interpreter exceeds Options.MaxMemory, after a garbage collection (only
// when the first look says so) so that dropped tensors do not count.
func (in *Interpreter) overMemory() (int64, bool) {
	limit := in.opts.MaxMemory
	used := in.MemoryInUse()
	if used <= limit {
		return used, false
	}
	goruntime.GC()
	// the cleanups that uncount dropped storages run on their own
	// goroutine after the collection: give them up to 20 ms (a loaded
	// machine), polling, before calling the limit crossed
	for i := 0; i < 20; i++ {
		time.Sleep(time.Millisecond)
		if used = in.MemoryInUse(); used <= limit {
			break
		}
	}
	return used, used > limit
}

// memRun is a guarded run with a MaxMemory. Its limit is checked on the
// allocating goroutine whenever an allocation brings tensor.LiveBytes past
// the lowest level at which some run's limit is crossed (the tensor
// package's live-bytes alarm), so a program stops within the operation
// that crossed it. A watcher goroutine also checks every memPoll and
// resets the alarm's level, which follows the runs' baselines (they move
// down when storages that were garbage at New are collected).
type memRun struct {
	in     *Interpreter
	reason *atomic.Int32
	peak   *atomic.Int64
	busy   sync.Mutex // one check at a time
}

// memRuns are the runs with a MaxMemory in progress, in all interpreters.
var memRuns struct {
	sync.Mutex
	list  []*memRun
	level int64 // the alarm's level (when list is not empty)
}

func addMemRun(r *memRun) {
	memRuns.Lock()
	defer memRuns.Unlock()
	memRuns.list = append(memRuns.list, r)
	setMemAlarm()
}

func removeMemRun(r *memRun) {
	memRuns.Lock()
	defer memRuns.Unlock()
	memRuns.list = slices.DeleteFunc(memRuns.list, func(x *memRun) bool { return x == r })
	setMemAlarm()
}

// setMemAlarm (memRuns locked) points the live-bytes alarm at the runs in
// progress, at the lowest live-bytes level that crosses one's limit.
func setMemAlarm() {
	if len(memRuns.list) == 0 {
		tensor.SetLiveBytesAlarm(0, nil)
		return
	}
	runs := slices.Clone(memRuns.list)
	memRuns.level = memAlarmLevel()
	tensor.SetLiveBytesAlarm(memRuns.level, func() {
		for _, r := range runs {
			r.check()
		}
	})
}

// memAlarmLevel (memRuns locked) is the lowest tensor.LiveBytes at which
// a run in progress exceeds its limit.
func memAlarmLevel() int64 {
	level := int64(math.MaxInt64)
	for _, r := range memRuns.list {
		level = min(level, r.in.memBase.Load()+r.in.opts.MaxMemory)
	}
	return level
}

// check cancels the run's thread when the tensor storage live since New
// exceeds Options.MaxMemory after a garbage collection (dropped tensors
// count until collected). A check already under way elsewhere makes it
// return at once.
func (r *memRun) check() {
	if r.reason.Load() != stopNone || r.in.MemoryInUse() <= r.in.opts.MaxMemory || !r.busy.TryLock() {
		return
	}
	defer r.busy.Unlock()
	if used, over := r.in.overMemory(); over {
		r.peak.Store(used)
		if r.reason.CompareAndSwap(stopNone, stopMemory) {
			r.in.th.Cancel("memory limit exceeded")
		}
	}
}

// watch checks the run every memPoll until done is closed or the run is
// stopped.
func (r *memRun) watch(done <-chan struct{}, exited chan<- struct{}) {
	defer close(exited)
	tick := time.NewTicker(memPoll)
	defer tick.Stop()
	for {
		r.check()
		if r.reason.Load() != stopNone {
			return
		}
		// The baselines may have moved down since the alarm was set.
		memRuns.Lock()
		if memAlarmLevel() != memRuns.level {
			setMemAlarm()
		}
		memRuns.Unlock()
		select {
		case <-done:
			return
		case <-tick.C:
		}
	}
}

// MemoryInUse returns the bytes of tensor storage that MaxMemory counts
// against this interpreter: the growth of the process-wide
// tensor.LiveBytes over the lowest value seen since New. The baseline
// follows the live total down when storages that were already garbage
// at New are collected later, so their release cannot hide this
// interpreter's allocations. Storages that are garbage but not yet
// collected still count.
func (in *Interpreter) MemoryInUse() int64 {
	live := tensor.LiveBytes()
	for {
		base := in.memBase.Load()
		if live >= base {
			return live - base
		}
		if in.memBase.CompareAndSwap(base, live) {
			return 0
		}
	}
}

// classify gives the errors caused from outside the program their Go
// causes: a context cancellation wraps ctx.Err(), a step limit wraps
// ErrStepLimit, and the memory watcher's cancellation becomes a
// "MemoryError" wrapping ErrMemoryLimit.
func (in *Interpreter) classify(err error, ctx context.Context, reason int32, peak int64) error {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	switch e.Kind {
	case "Cancelled":
		switch reason {
		case stopMemory:
			e.Kind = "MemoryError"
			e.Msg = fmt.Sprintf("memory limit exceeded: %d bytes of tensor storage live, limit %d", peak, in.opts.MaxMemory)
			e.Cause = ErrMemoryLimit
		case stopCtx:
			e.Cause = ctx.Err()
		}
	case "LimitError":
		if e.Cause == nil || !errors.Is(e.Cause, ErrStepLimit) {
			e.Cause = ErrStepLimit
		}
	}
	return e
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
