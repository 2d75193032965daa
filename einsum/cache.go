package einsum

import (
	"container/list"
	"strconv"
	"sync"
)

// Cache is a concurrency-safe LRU cache of Plans keyed by (equation text,
// operand shapes, strides signature). Only successful plans are cached.
// The zero value is not usable; call NewCache.
type Cache struct {
	mu    sync.Mutex
	cap   int
	ll    *list.List // front = most recently used; values are *cacheEntry
	items map[string]*list.Element
	hits  uint64
	miss  uint64
}

type cacheEntry struct {
	key  string
	plan *Plan
}

// DefaultCache is the process-wide plan cache (256 plans) used by PlanFor.
var DefaultCache = NewCache(256)

// NewCache returns an empty cache holding at most capacity plans
// (capacity < 1 is treated as 1).
func NewCache(capacity int) *Cache {
	return &Cache{cap: max(capacity, 1), ll: list.New(), items: make(map[string]*list.Element)}
}

// PlanFor is DefaultCache.Plan.
func PlanFor(eq string, shapes [][]int, strides string) (*Plan, error) {
	return DefaultCache.Plan(eq, shapes, strides)
}

// Plan returns the cached plan for (eq, shapes, strides), or parses eq,
// binds it to shapes, caches and returns the new plan. strides is an opaque
// signature of the operands' memory layouts chosen by the caller ("" is
// fine); plans for different signatures are cached separately so a caller
// may make layout-dependent choices, although the current planner does not
// depend on strides. Errors are those of Parse and Bind. Two goroutines
// missing on the same key may both build the plan; the results are equal.
func (c *Cache) Plan(eq string, shapes [][]int, strides string) (*Plan, error) {
	key := cacheKey(eq, shapes, strides)
	c.mu.Lock()
	if el, ok := c.items[key]; ok {
		c.ll.MoveToFront(el)
		c.hits++
		p := el.Value.(*cacheEntry).plan
		c.mu.Unlock()
		return p, nil
	}
	c.miss++
	c.mu.Unlock()

	e, err := Parse(eq)
	if err != nil {
		return nil, err
	}
	p, err := e.Bind(shapes)
	if err != nil {
		return nil, err
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok { // built concurrently
		c.ll.MoveToFront(el)
		return el.Value.(*cacheEntry).plan, nil
	}
	c.items[key] = c.ll.PushFront(&cacheEntry{key, p})
	for c.ll.Len() > c.cap {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*cacheEntry).key)
	}
	return p, nil
}

// Len returns the number of cached plans.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// Stats returns the number of lookups that hit and missed.
func (c *Cache) Stats() (hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.miss
}

// cacheKey encodes the key unambiguously: the equation and strides are
// length-prefixed, each shape is its rank followed by its sizes.
func cacheKey(eq string, shapes [][]int, strides string) string {
	b := make([]byte, 0, len(eq)+len(strides)+16+8*len(shapes))
	b = strconv.AppendInt(b, int64(len(eq)), 10)
	b = append(b, ':')
	b = append(b, eq...)
	b = strconv.AppendInt(b, int64(len(shapes)), 10)
	for _, s := range shapes {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(len(s)), 10)
		for _, d := range s {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(d), 10)
		}
	}
	b = append(b, '#')
	b = append(b, strides...)
	return string(b)
}
