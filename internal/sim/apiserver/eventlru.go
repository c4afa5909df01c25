package apiserver

import "math/bits"

// lru is a least recently used cache of at most correlatorCacheSize
// entries (k8s.io/utils/lru in upstream, as events_cache.go uses it),
// keyed by a 64-bit hash.
//
// It allocates nothing per entry and holds no pointers but to its
// chunks: the entries live in chunks of slots (never copied as it grows),
// linked by 16-bit index, and a table of 16-bit indexes (open addressing,
// linear probing, at most half full) finds a key's entry, so a
// correlator's records cost about their own size and the garbage
// collector never scans them. Slot 0 is unused: index 0 is
// "none". An evicted entry's slot is reused by the entry that pushed it
// out; its generation tells a ref to the old entry from one to the new.
type lru[V any] struct {
	table      []int16                 // slot by home(key), 0 empty; a power of two long
	chunks     []*[lruChunk]lruSlot[V] // slot i is chunks[i/lruChunk][i%lruChunk]
	n          int                     // slots in use, slot 0 included
	head, tail int16                   // most recently used at the head
	// evicted, when set, sees an entry as it is forgotten.
	evicted func(key uint64, ref lruRef, v *V)
}

// lruChunk is how many slots are allocated at a time: growing never copies
// them, and at most one chunk is partly unused.
const lruChunk = 16

type lruSlot[V any] struct {
	key        uint64
	prev, next int16
	gen        uint32
	val        V
}

// lruRef names one entry for as long as it is cached: at answers nil once
// it was forgotten, even if its slot holds another entry now.
type lruRef struct {
	slot int16
	gen  uint32
}

// size is the number of entries.
func (a *lru[V]) size() int { return max(a.n-1, 0) }

// slot is slot i.
func (a *lru[V]) slot(i int16) *lruSlot[V] { return &a.chunks[i/lruChunk][i%lruChunk] }

// home is key's first place in the table (Fibonacci hashing: the keys are
// FNV hashes, whose low bits alone cluster).
func (a *lru[V]) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> (64 - bits.TrailingZeros(uint(len(a.table)))))
}

// find returns key's place in the table and its slot, or the empty place
// where it would go and 0.
func (a *lru[V]) find(key uint64) (int, int16) {
	if len(a.table) == 0 {
		return 0, 0
	}
	mask := len(a.table) - 1
	for p := a.home(key); ; p = (p + 1) & mask {
		i := a.table[p]
		if i == 0 || a.slot(i).key == key {
			return p, i
		}
	}
}

// remove empties place p of the table, moving later entries of its run
// back so that every key stays reachable from its home (backward shift).
func (a *lru[V]) remove(p int) {
	mask := len(a.table) - 1
	for q := (p + 1) & mask; a.table[q] != 0; q = (q + 1) & mask {
		h := a.home(a.slot(a.table[q]).key)
		// The entry at q may move to p unless its home lies cyclically
		// in (p, q].
		if (p < q && (h <= p || h > q)) || (p > q && h <= p && h > q) {
			a.table[p] = a.table[q]
			p = q
		}
	}
	a.table[p] = 0
}

// grow doubles the table (or makes the first one) and places every entry
// again.
func (a *lru[V]) grow() {
	a.table = make([]int16, max(16, 2*len(a.table)))
	mask := len(a.table) - 1
	for i := 1; i < a.n; i++ {
		p := a.home(a.slot(int16(i)).key)
		for a.table[p] != 0 {
			p = (p + 1) & mask
		}
		a.table[p] = int16(i)
	}
}

func (a *lru[V]) unlink(i int16) {
	r := a.slot(i)
	if r.prev != 0 {
		a.slot(r.prev).next = r.next
	} else {
		a.head = r.next
	}
	if r.next != 0 {
		a.slot(r.next).prev = r.prev
	} else {
		a.tail = r.prev
	}
	r.prev, r.next = 0, 0
}

func (a *lru[V]) pushFront(i int16) {
	r := a.slot(i)
	r.next = a.head
	if a.head != 0 {
		a.slot(a.head).prev = i
	}
	a.head = i
	if a.tail == 0 {
		a.tail = i
	}
}

// touch makes slot i the most recently used.
func (a *lru[V]) touch(i int16) {
	if i != a.head {
		a.unlink(i)
		a.pushFront(i)
	}
}

// get returns key's value, made the most recently used, or nil. The
// pointer is good until the next insert.
func (a *lru[V]) get(key uint64) *V {
	_, i := a.find(key)
	if i == 0 {
		return nil
	}
	a.touch(i)
	return &a.slot(i).val
}

// insert stores val under key, known not to be cached (get just answered
// nil), as the most recently used (Cache.Add of a new key), and forgets the
// least recently used entry beyond the size. The pointer is good until the
// next insert.
func (a *lru[V]) insert(key uint64, val V) *V {
	var i int16
	placed := false
	if a.size() < correlatorCacheSize {
		if a.n == 0 {
			a.n = 1 // slot 0 stands for none
		}
		if a.n%lruChunk == 0 || len(a.chunks) == 0 {
			a.chunks = append(a.chunks, new([lruChunk]lruSlot[V]))
		}
		i = int16(a.n)
		a.n++
		a.slot(i).key = key
		if 2*a.size() > len(a.table) {
			a.grow() // places the new entry too
			placed = true
		}
	} else {
		// Upstream adds the entry, then removes the oldest one: the
		// same entries remain when the new one takes the oldest's slot.
		i = a.tail
		old := a.slot(i)
		if a.evicted != nil {
			a.evicted(old.key, lruRef{slot: i, gen: old.gen}, &old.val)
		}
		a.unlink(i)
		p, _ := a.find(old.key)
		a.remove(p)
		old.gen++
	}
	r := a.slot(i)
	r.key, r.val = key, val
	a.pushFront(i)
	if !placed {
		p, _ := a.find(key)
		a.table[p] = i
	}
	return &r.val
}

// headRef names the most recently used entry: the one get or insert just
// answered (ref of its key, without looking it up again).
func (a *lru[V]) headRef() lruRef { return lruRef{slot: a.head, gen: a.slot(a.head).gen} }

// at is the entry ref names, or nil once it was forgotten.
func (a *lru[V]) at(ref lruRef) *V {
	if ref.slot <= 0 || int(ref.slot) >= a.n || a.slot(ref.slot).gen != ref.gen {
		return nil
	}
	return &a.slot(ref.slot).val
}
