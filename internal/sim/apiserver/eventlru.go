package apiserver

// lru is a least recently used cache of at most correlatorCacheSize
// entries (k8s.io/utils/lru in upstream, as events_cache.go uses it),
// keyed by a 64-bit hash.
//
// It holds no pointers: the entries live in one slice, linked by index,
// and the map gives a key's index, so a correlator's thousands of records
// are neither allocated one by one nor scanned by the garbage collector.
// Slot 0 is unused: index 0 is "none". An evicted entry's slot is reused
// by the entry that pushed it out; its generation tells a ref to the old
// entry from one to the new.
type lru[V any] struct {
	byKey      map[uint64]int32
	slots      []lruSlot[V]
	head, tail int32 // most recently used at the head
	// evicted, when set, sees an entry as it is forgotten.
	evicted func(key uint64, ref lruRef, v *V)
}

type lruSlot[V any] struct {
	key        uint64
	prev, next int32
	gen        uint32
	val        V
}

// lruRef names one entry for as long as it is cached: at answers nil once
// it was forgotten, even if its slot holds another entry now.
type lruRef struct {
	slot int32
	gen  uint32
}

func (a *lru[V]) unlink(i int32) {
	r := &a.slots[i]
	if r.prev != 0 {
		a.slots[r.prev].next = r.next
	} else {
		a.head = r.next
	}
	if r.next != 0 {
		a.slots[r.next].prev = r.prev
	} else {
		a.tail = r.prev
	}
	r.prev, r.next = 0, 0
}

func (a *lru[V]) pushFront(i int32) {
	r := &a.slots[i]
	r.next = a.head
	if a.head != 0 {
		a.slots[a.head].prev = i
	}
	a.head = i
	if a.tail == 0 {
		a.tail = i
	}
}

// touch makes slot i the most recently used.
func (a *lru[V]) touch(i int32) {
	if i != a.head {
		a.unlink(i)
		a.pushFront(i)
	}
}

// get returns key's value, made the most recently used, or nil. The
// pointer is good until the next add.
func (a *lru[V]) get(key uint64) *V {
	i, ok := a.byKey[key]
	if !ok {
		return nil
	}
	a.touch(i)
	return &a.slots[i].val
}

// add stores val under key as the most recently used (Cache.Add), and
// forgets the least recently used entry beyond the size. The pointer is
// good until the next add.
func (a *lru[V]) add(key uint64, val V) *V {
	if a.byKey == nil {
		a.byKey = map[uint64]int32{}
		a.slots = make([]lruSlot[V], 1, 8)
	}
	if i, ok := a.byKey[key]; ok {
		a.slots[i].val = val
		a.touch(i)
		return &a.slots[i].val
	}
	var i int32
	if len(a.byKey) < correlatorCacheSize {
		a.slots = append(a.slots, lruSlot[V]{})
		i = int32(len(a.slots) - 1)
	} else {
		// Upstream adds the entry, then removes the oldest one: the
		// same entries remain when the new one takes the oldest's slot.
		i = a.tail
		old := &a.slots[i]
		if a.evicted != nil {
			a.evicted(old.key, lruRef{slot: i, gen: old.gen}, &old.val)
		}
		a.unlink(i)
		delete(a.byKey, old.key)
		old.gen++
	}
	r := &a.slots[i]
	r.key, r.val = key, val
	a.pushFront(i)
	a.byKey[key] = i
	return &r.val
}

// ref names key's entry (which must be cached) without touching it.
func (a *lru[V]) ref(key uint64) lruRef {
	i := a.byKey[key]
	return lruRef{slot: i, gen: a.slots[i].gen}
}

// at is the entry ref names, or nil once it was forgotten.
func (a *lru[V]) at(ref lruRef) *V {
	if ref.slot <= 0 || int(ref.slot) >= len(a.slots) || a.slots[ref.slot].gen != ref.gen {
		return nil
	}
	return &a.slots[ref.slot].val
}

// len is the number of entries, counted along the list.
func (a *lru[V]) len() int {
	n := 0
	for i := a.head; i != 0; i = a.slots[i].next {
		n++
	}
	return n
}
