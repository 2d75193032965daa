package tensor

import (
	"errors"
	"strings"
	"testing"
)

// allocPanic runs f and returns the *Error it panicked with, or nil.
func allocPanic(f func()) (e *Error) {
	defer func() {
		if r := recover(); r != nil {
			if !errors.As(r.(error), &e) {
				panic(r)
			}
		}
	}()
	f()
	return nil
}

func TestAllocLimit(t *testing.T) {
	prev := SetMaxAllocBytes(1 << 20)
	defer SetMaxAllocBytes(prev)
	if got := MaxAllocBytes(); got != 1<<20 {
		t.Fatalf("MaxAllocBytes = %d", got)
	}
	// Just under the limit works.
	if e := allocPanic(func() { _, _ = Zeros([]int{1 << 18}, F32) }); e != nil {
		t.Fatalf("1 MiB allocation failed: %v", e)
	}
	// Above the limit: a MemoryError naming the size, from creation and from
	// a broadcast result alike.
	e := allocPanic(func() { _, _ = Zeros([]int{1<<18 + 1}, F32) })
	if e == nil || e.Kind != MemoryError || !strings.Contains(e.Msg, "1048580 bytes") {
		t.Fatalf("got %v", e)
	}
	a, _ := Ones([]int{1024, 1}, F32)
	b, _ := Ones([]int{1, 1024}, F32)
	if e := allocPanic(func() { _, _ = Add(a, b) }); e == nil || e.Kind != MemoryError {
		t.Fatalf("broadcast over the limit: got %v", e)
	}
	// Sizes whose byte count overflows an int.
	SetMaxAllocBytes(0)
	if e := allocPanic(func() { checkAlloc(F64, int(^uint(0)>>2)) }); e == nil || e.Kind != MemoryError {
		t.Fatalf("overflowing size: got %v", e)
	}
	if MaxAllocBytes() != physicalMemory {
		t.Fatal("SetMaxAllocBytes(0) must restore the default")
	}
}

func TestShapeOverflowIsAnError(t *testing.T) {
	huge := 1 << 62
	if _, err := Zeros([]int{huge, 4}, F32); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Fatalf("Zeros: got %v", err)
	}
	one, _ := Zeros([]int{1}, F32)
	if _, err := one.Expand(huge, 4); err == nil {
		t.Fatal("Expand to an overflowing shape must fail")
	}
	// A zero-size dim makes any shape countable.
	if z, err := Zeros([]int{0, huge, 4}, F32); err != nil || z.Numel() != 0 {
		t.Fatalf("zero-size: %v", err)
	}
}

func TestRangeCreationRespectsTheLimit(t *testing.T) {
	prev := SetMaxAllocBytes(1 << 20)
	defer SetMaxAllocBytes(prev)
	check := func(name string, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Kind != MemoryError {
			t.Fatalf("%s: got %v, want a MemoryError", name, err)
		}
	}
	_, err := Arange(0, 1e10, 1, F32)
	check("Arange", err)
	_, err = ArangeInt(0, 1e10, 1, I64)
	check("ArangeInt", err)
	_, err = ArangeInt(-1<<62, 1<<62, 1, I64)
	check("ArangeInt overflowing span", err)
	_, err = Linspace(0, 1, 1e10, F32)
	check("Linspace", err)
	if x, err := ArangeInt(0, 5, 1, I64); err != nil || x.Numel() != 5 {
		t.Fatalf("small arange: %v", err)
	}
}
