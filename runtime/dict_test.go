package runtime

import (
	"fmt"
	"math"
	"testing"
)

// Deleting keeps insertion order, lookups and Len right, and costs O(1)
// amortized: tombstones are compacted once they outnumber the live
// entries (a delete used to shift and rehash every later entry).
func TestDictDeleteOrderAndCompaction(t *testing.T) {
	const n = 10000
	d := NewDict(0)
	for i := 0; i < n; i++ {
		if err := d.SetKey(Int(i), Int(10*i)); err != nil {
			t.Fatal(err)
		}
	}
	// delete every key not divisible by 10, in a scattered order
	for _, start := range []int{3, 7, 1, 9, 5, 2, 8, 4, 6} {
		for i := start; i < n; i += 10 {
			v, ok, err := d.Delete(Int(i))
			if err != nil || !ok || v != Int(10*i) {
				t.Fatalf("Delete(%d) = %v, %v, %v", i, v, ok, err)
			}
		}
		if len(d.entries) > 2*d.Len()+17 {
			t.Fatalf("%d slots for %d live entries: tombstones not compacted", len(d.entries), d.Len())
		}
	}
	if d.Len() != n/10 {
		t.Fatalf("Len %d, want %d", d.Len(), n/10)
	}
	if _, ok, _ := d.Delete(Int(3)); ok {
		t.Error("deleted key deleted again")
	}
	keys := d.Keys()
	for j, k := range keys {
		if k != Int(10*j) {
			t.Fatalf("key %d is %v, want %d (insertion order)", j, k, 10*j)
		}
		if v, ok, _ := d.Get(k); !ok || v != Int(100*j) {
			t.Fatalf("d[%v] = %v, %v", k, v, ok)
		}
	}
	// a re-inserted key goes to the end; deleting the last entry leaves no tombstone
	if err := d.SetKey(Int(5), String("x")); err != nil {
		t.Fatal(err)
	}
	items := d.Items()
	if last := items[len(items)-1]; last[0] != Int(5) || last[1] != String("x") {
		t.Errorf("last item %v", last)
	}
	d.Delete(Int(5))
	if d.dead != 0 && d.entries[len(d.entries)-1].key == nil {
		t.Error("tombstone left at the end")
	}
	if got := fmt.Sprint(d.Len()); got != fmt.Sprint(n/10) {
		t.Errorf("Len %s", got)
	}
}

// Keys that compare equal are one key whatever their class (1, 1.0 and
// true; -0.0 and 0; (1,) and (1.0,)), str and int keys never collide,
// insertion order runs across the classes, and NaN keys are never found
// (each insertion of a NaN adds an entry), as before the index was split.
func TestDictKeyClasses(t *testing.T) {
	d := NewDict(0)
	set := func(k, v Value) {
		t.Helper()
		if err := d.SetKey(k, v); err != nil {
			t.Fatal(err)
		}
	}
	set(Int(1), String("a"))
	set(String("1"), String("b"))
	set(Float(1.0), String("c")) // replaces the value of key 1, keeps the key
	set(Bool(true), String("d"))
	set(Float(math.Copysign(0, -1)), String("e"))
	set(Int(0), String("f"))
	set(Tuple{Int(1), String("x")}, String("g"))
	set(Tuple{Float(1), String("x")}, String("h"))
	set(None, String("i"))
	set(Float(2.5), String("j"))
	set(Int(1<<40), String("k"))
	set(Float(math.Inf(1)), String("l"))
	nan := Float(math.NaN())
	set(nan, String("m"))
	set(nan, String("n"))
	if got, want := d.String(), `{1: 'd', '1': 'b', -0.0: 'f', (1, 'x'): 'h', none: 'i', 2.5: 'j', 1099511627776: 'k', inf: 'l', nan: 'm', nan: 'n'}`; got != want {
		t.Errorf("dict %s\nwant %s", got, want)
	}
	for _, c := range []struct {
		k    Value
		want Value
	}{
		{Bool(true), String("d")}, {Float(1), String("d")}, {String("1"), String("b")},
		{Bool(false), String("f")}, {Float(0), String("f")},
		{Tuple{Bool(true), String("x")}, String("h")}, {None, String("i")},
		{Float(2.5), String("j")}, {Float(1 << 40), String("k")},
		{Float(math.Inf(1)), String("l")}, {nan, nil}, {Int(2), nil}, {String("x"), nil},
	} {
		v, ok, err := d.Get(c.k)
		if err != nil || ok != (c.want != nil) || (ok && v != c.want) {
			t.Errorf("Get(%v) = %v, %v, %v; want %v", c.k, v, ok, err, c.want)
		}
	}
	if _, _, err := d.Get(NewList(nil)); err == nil || err.Error() != "unhashable type: 'list'" {
		t.Errorf("Get(list) error %v", err)
	}
	if err := d.SetKey(Tuple{NewDict(0)}, None); err == nil || err.Error() != "unhashable type: 'dict'" {
		t.Errorf("SetKey((dict,)) error %v", err)
	}
	// delete one key of each class, then compact through them
	for _, k := range []Value{Bool(true), String("1"), Tuple{Int(1), String("x")}, None} {
		if _, ok, err := d.Delete(k); !ok || err != nil {
			t.Fatalf("Delete(%v) = %v, %v", k, ok, err)
		}
	}
	d.compact()
	if got, want := d.String(), `{-0.0: 'f', 2.5: 'j', 1099511627776: 'k', inf: 'l', nan: 'm', nan: 'n'}`; got != want {
		t.Errorf("after deletes %s\nwant %s", got, want)
	}
	if v, ok, _ := d.Get(Int(1 << 40)); !ok || v != String("k") {
		t.Errorf("after compaction d[1<<40] = %v, %v", v, ok)
	}
	set(String("1"), Int(9))
	if v, ok, _ := d.Get(String("1")); !ok || v != Int(9) || d.Len() != 7 {
		t.Errorf("re-inserted '1' = %v, %v, len %d", v, ok, d.Len())
	}
}

// The int key index (intIndex) under keys that collide in its low bits,
// extreme keys, and a steady size under inserts and deletes (which must
// neither lose keys nor rebuild the table into a large one).
func TestDictIntIndex(t *testing.T) {
	d := NewDict(0)
	var keys []int64
	for i := int64(0); i < 2000; i++ {
		keys = append(keys, i<<20, -i<<33-1, i*7919)
	}
	keys = append(keys, math.MinInt64, math.MaxInt64, -1)
	want := map[int64]int64{}
	for i, k := range keys {
		if err := d.SetKey(Int(k), Int(int64(i))); err != nil {
			t.Fatal(err)
		}
		if _, dup := want[k]; !dup {
			want[k] = int64(i)
		} else {
			want[k] = int64(i) // a repeated key keeps its slot, takes the new value
		}
	}
	if d.Len() != len(want) {
		t.Fatalf("Len %d, want %d", d.Len(), len(want))
	}
	for k, v := range want {
		if got, ok, _ := d.Get(Int(k)); !ok || got != Int(v) {
			t.Fatalf("d[%d] = %v, %v; want %d", k, got, ok, v)
		}
	}
	if _, ok, _ := d.Get(Int(12345678901)); ok {
		t.Error("absent key found")
	}
	// steady size: 21 live keys, 100k insert/delete pairs
	s := NewDict(0)
	for i := 0; i < 21; i++ {
		s.SetKey(Int(i), None)
	}
	for i := 21; i < 100021; i++ {
		s.SetKey(Int(i), Int(i))
		if _, ok, _ := s.Delete(Int(i - 21)); !ok {
			t.Fatalf("key %d lost", i-21)
		}
	}
	if s.Len() != 21 || len(s.ints.slots) > 128 {
		t.Errorf("Len %d, %d index slots", s.Len(), len(s.ints.slots))
	}
	for i := 100000; i < 100021; i++ {
		if v, ok, _ := s.Get(Float(float64(i))); !ok || v != Int(i) {
			t.Fatalf("s[%d.0] = %v, %v", i, v, ok)
		}
	}
}

// -2**63 is an int64 and equal to float(-2**63), so both are one dict key
// (and the float is in a range holding the int), as in Python: the
// integral-float test excluded the bottom of int64's range.
func TestDictMinInt64FloatKey(t *testing.T) {
	m, f := Int(math.MinInt64), Float(math.MinInt64)
	if eq, err := Equal(m, f); err != nil || !eq {
		t.Fatalf("-2**63 == float(-2**63) is %v, %v", eq, err)
	}
	d := NewDict(0)
	if err := d.SetKey(m, String("int")); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := d.Get(f); err != nil || !ok || v != String("int") {
		t.Errorf("d[float(-2**63)] = %v, %v, %v; want 'int'", v, ok, err)
	}
	if err := d.SetKey(f, String("float")); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1 || d.Keys()[0] != m {
		t.Errorf("keys %v, want the one int key", d.Keys())
	}
	k1, err1 := hashKey(Tuple{m})
	k2, err2 := hashKey(Tuple{f})
	if err1 != nil || err2 != nil || k1 != k2 {
		t.Errorf("hashKey((-2**63,)) %v != hashKey((float(-2**63),)) %v", k1, k2)
	}
	if in, err := Contains(NewRange(math.MinInt64, math.MinInt64+2, 1), f); err != nil || !in {
		t.Errorf("float(-2**63) in range(-2**63, -2**63 + 2) = %v, %v", in, err)
	}
}
