package stdlib

import "math/bits"

// libstdc++'s std::sort, replayed where PyTorch's result depends on it.
//
// ATen's CPU mode kernel sorts (value, index) pairs with std::sort and a
// comparator on the values only, then reports the index of the last pair
// of the longest run. std::sort is not stable, so among tied values the
// index PyTorch returns is whichever ends up last after libstdc++'s
// introsort; a stable sort gives the last occurrence instead (the same
// only for rows of at most 16 elements, which are insertion-sorted). The
// port below follows bits/stl_algo.h and bits/stl_heap.h (GCC): introsort
// with median-of-three pivots and a depth limit of 2·⌊log2 n⌋, heapsort
// past it, and a final insertion sort of 16-element threshold. NaN
// compares false both ways, exactly as operator< does in C++.

// stdSortThreshold is libstdc++'s _S_threshold.
const stdSortThreshold = 16

// pairSorter sorts keys and their indices together by key.
type pairSorter[K int64 | float64] struct {
	k []K
	i []int64
}

func (s *pairSorter[K]) less(a, b int) bool { return s.k[a] < s.k[b] }
func (s *pairSorter[K]) swap(a, b int) {
	s.k[a], s.k[b] = s.k[b], s.k[a]
	s.i[a], s.i[b] = s.i[b], s.i[a]
}

// stdSortPairs sorts keys (and idx alongside) as std::sort(first, last,
// [](a, b) { return a.first < b.first; }) does.
func stdSortPairs[K int64 | float64](keys []K, idx []int64) {
	n := len(keys)
	if n < 2 {
		return
	}
	s := &pairSorter[K]{keys, idx}
	s.introsortLoop(0, n, 2*(bits.Len(uint(n))-1))
	s.finalInsertionSort(0, n)
}

func (s *pairSorter[K]) introsortLoop(first, last, depth int) {
	for last-first > stdSortThreshold {
		if depth == 0 {
			s.heapSort(first, last)
			return
		}
		depth--
		cut := s.partitionPivot(first, last)
		s.introsortLoop(cut, last, depth)
		last = cut
	}
}

// partitionPivot is __unguarded_partition_pivot: the median of
// first+1, mid and last-1 moved to first, then Hoare partition.
func (s *pairSorter[K]) partitionPivot(first, last int) int {
	mid := first + (last-first)/2
	a, b, c := first+1, mid, last-1
	switch {
	case s.less(a, b):
		switch {
		case s.less(b, c):
			s.swap(first, b)
		case s.less(a, c):
			s.swap(first, c)
		default:
			s.swap(first, a)
		}
	case s.less(a, c):
		s.swap(first, a)
	case s.less(b, c):
		s.swap(first, c)
	default:
		s.swap(first, b)
	}
	lo, hi := first+1, last
	for {
		for s.less(lo, first) {
			lo++
		}
		hi--
		for s.less(first, hi) {
			hi--
		}
		if lo >= hi {
			return lo
		}
		s.swap(lo, hi)
		lo++
	}
}

func (s *pairSorter[K]) finalInsertionSort(first, last int) {
	if last-first > stdSortThreshold {
		s.insertionSort(first, first+stdSortThreshold)
		for i := first + stdSortThreshold; i < last; i++ {
			s.linearInsert(i)
		}
		return
	}
	s.insertionSort(first, last)
}

// insertionSort is __insertion_sort: an element below the first moves to
// the front, others are inserted by an unguarded scan.
func (s *pairSorter[K]) insertionSort(first, last int) {
	for i := first + 1; i < last; i++ {
		if s.less(i, first) {
			k, x := s.k[i], s.i[i]
			copy(s.k[first+1:i+1], s.k[first:i])
			copy(s.i[first+1:i+1], s.i[first:i])
			s.k[first], s.i[first] = k, x
		} else {
			s.linearInsert(i)
		}
	}
}

// linearInsert is __unguarded_linear_insert.
func (s *pairSorter[K]) linearInsert(last int) {
	k, x := s.k[last], s.i[last]
	next := last - 1
	for k < s.k[next] {
		s.k[last], s.i[last] = s.k[next], s.i[next]
		last = next
		next--
	}
	s.k[last], s.i[last] = k, x
}

// heapSort is __partial_sort(first, last, last): make_heap, sort_heap.
func (s *pairSorter[K]) heapSort(first, last int) {
	n := last - first
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		s.adjustHeap(first, parent, n, s.k[first+parent], s.i[first+parent])
		if parent == 0 {
			break
		}
	}
	for last-first > 1 {
		last--
		k, x := s.k[last], s.i[last]
		s.k[last], s.i[last] = s.k[first], s.i[first]
		s.adjustHeap(first, 0, last-first, k, x)
	}
}

// adjustHeap is __adjust_heap followed by __push_heap, on the heap at
// first of length n with the value (k, x) placed at hole.
func (s *pairSorter[K]) adjustHeap(first, hole, n int, k K, x int64) {
	top, child := hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if s.k[first+child] < s.k[first+child-1] {
			child--
		}
		s.k[first+hole], s.i[first+hole] = s.k[first+child], s.i[first+child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		s.k[first+hole], s.i[first+hole] = s.k[first+child-1], s.i[first+child-1]
		hole = child - 1
	}
	for parent := (hole - 1) / 2; hole > top && s.k[first+parent] < k; parent = (hole - 1) / 2 {
		s.k[first+hole], s.i[first+hole] = s.k[first+parent], s.i[first+parent]
		hole = parent
	}
	s.k[first+hole], s.i[first+hole] = k, x
}
