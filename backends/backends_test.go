package backends

import "testing"

func TestRegistryResolution(t *testing.T) {
	key := Key{Op: "test_op", DType: "float32", Device: "cpu"}
	Register(key, Candidate{Name: "go", Impl: 1, Requires: TierGeneric})
	Register(key, Candidate{Name: "future", Impl: 3, Requires: Tier(99), Priority: 100})
	Register(key, Candidate{Name: "simd", Impl: 2, Requires: CPUTier(), Priority: 10})
	c, ok := Lookup(key)
	if !ok {
		t.Fatal("no candidate")
	}
	want := "simd"
	if c.Name != want {
		t.Fatalf("chose %s, want %s", c.Name, want)
	}
	if got := len(Candidates(key)); got != 3 {
		t.Fatalf("Candidates = %d, want 3", got)
	}
	if Candidates(key)[0].Name != "future" {
		t.Fatalf("Candidates not in priority order: %+v", Candidates(key))
	}
	found := false
	for _, a := range Active() {
		if a.Key == key {
			found = a.Name == want
		}
	}
	if !found {
		t.Fatalf("Active does not list %v=%s", key, want)
	}
	if _, ok := Lookup(Key{Op: "missing"}); ok {
		t.Fatal("Lookup of missing op succeeded")
	}
}

func TestSelectMinSize(t *testing.T) {
	key := Key{Op: "test_minsize", DType: "float64", Device: "cpu"}
	Register(key, Candidate{Name: "small", Impl: 1})
	Register(key, Candidate{Name: "big", Impl: 2, Priority: 5, MinSize: 1000})
	if c, _ := Select(key, 10); c.Name != "small" {
		t.Fatalf("Select(10) = %s", c.Name)
	}
	if c, _ := Select(key, 5000); c.Name != "big" {
		t.Fatalf("Select(5000) = %s", c.Name)
	}
}

func TestRegisterPanics(t *testing.T) {
	key := Key{Op: "test_dup", DType: "float32", Device: "cpu"}
	Register(key, Candidate{Name: "a", Impl: 1})
	for _, c := range []Candidate{{Name: "a", Impl: 2}, {Name: "b"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%+v) did not panic", c)
				}
			}()
			Register(key, c)
		}()
	}
}

func TestParseTier(t *testing.T) {
	for s, want := range map[string]Tier{"generic": TierGeneric, "purego": TierGeneric, "AVX2": TierAVX2, "avx512": TierAVX512} {
		if got, err := ParseTier(s); err != nil || got != want {
			t.Errorf("ParseTier(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseTier("sse9"); err == nil {
		t.Error("ParseTier(sse9) succeeded")
	}
	if CPUTier() > HardwareTier() {
		t.Error("CPUTier above hardware")
	}
	for _, tr := range []Tier{TierGeneric, TierAVX2, TierAVX512} {
		if p, _ := ParseTier(tr.String()); p != tr {
			t.Errorf("round trip %v", tr)
		}
	}
}

func TestCPUAlloc(t *testing.T) {
	b, err := CPU.Allocator().Alloc(100)
	if err != nil || b.Len() != 100 || b.Device().Name() != "cpu" {
		t.Fatalf("Alloc = %v, %v", b, err)
	}
	if uintptrOf(b.(*CPUBuffer).Bytes)&63 != 0 {
		t.Fatal("not 64-byte aligned")
	}
	if _, err := CPU.Allocator().Alloc(-1); err == nil {
		t.Fatal("negative Alloc succeeded")
	}
}

func TestKernelTable(t *testing.T) {
	for _, op := range []string{"zz_b", "zz_a"} {
		Register(Key{Op: op, DType: "int7", Device: "testdev"}, Candidate{Name: "fast", Impl: 1, Requires: TierGeneric, Priority: 5})
	}
	Register(Key{Op: "zz_c", DType: "int7", Device: "testdev"}, Candidate{Name: "slow", Impl: 1, Requires: TierGeneric})
	Register(Key{Op: "sgemm", DType: "int7", Device: "testdev"}, Candidate{Name: "g", Impl: 1, Requires: TierGeneric})
	want := "testdev int7: fast: zz_a zz_b; slow: zz_c"
	for _, l := range KernelTable() {
		if l == want {
			return
		}
	}
	t.Fatalf("KernelTable() = %q, want a line %q", KernelTable(), want)
}
