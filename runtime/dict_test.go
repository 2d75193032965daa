package runtime

import (
	"fmt"
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
