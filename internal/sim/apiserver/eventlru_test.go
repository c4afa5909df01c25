package apiserver

import (
	"container/list"
	"math/rand/v2"
	"testing"
)

// A ref names one entry: once it is forgotten, its slot's next entry is
// not it.
func TestLRURef(t *testing.T) {
	var a lru[int]
	var gone []uint64
	a.evicted = func(key uint64, _ lruRef, _ *int) { gone = append(gone, key) }
	a.add(0, 0)
	r0 := a.ref(0)
	for k := uint64(1); k <= correlatorCacheSize; k++ {
		a.add(k, int(k))
	}
	if a.at(r0) != nil || len(gone) != 1 || gone[0] != 0 || a.len() != correlatorCacheSize {
		t.Fatalf("entry 0 not forgotten: at %v, evicted %v, %d entries", a.at(r0), gone, a.len())
	}
	if v := a.at(a.ref(correlatorCacheSize)); v == nil || *v != correlatorCacheSize {
		t.Fatalf("newest entry: %v", v)
	}
}

// The cache keeps the entries a list-and-map LRU (k8s.io/utils/lru's
// shape) keeps, in the same order, through adds, gets and evictions.
func TestLRUMatchesListLRU(t *testing.T) {
	var a lru[int]
	ref := list.New()
	byKey := map[uint64]*list.Element{}
	type kv struct {
		k uint64
		v int
	}
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 6000) // hashes, as the correlator's keys are
	for i := range keys {
		keys[i] = r.Uint64()
	}
	for n := 0; n < 60000; n++ {
		k := keys[r.IntN(len(keys))]
		if r.IntN(3) == 0 {
			v := a.get(k)
			e := byKey[k]
			if (v == nil) != (e == nil) || (v != nil && *v != e.Value.(kv).v) {
				t.Fatalf("op %d: get %x = %v, want %v", n, k, v, e)
			}
			if e != nil {
				ref.MoveToFront(e)
			}
			continue
		}
		a.add(k, n)
		if e := byKey[k]; e != nil {
			e.Value = kv{k, n}
			ref.MoveToFront(e)
		} else {
			byKey[k] = ref.PushFront(kv{k, n})
			if ref.Len() > correlatorCacheSize {
				old := ref.Remove(ref.Back()).(kv)
				delete(byKey, old.k)
			}
		}
	}
	i := a.head
	for e := ref.Front(); e != nil; e = e.Next() {
		if want := e.Value.(kv); i == 0 || a.slot(i).key != want.k || a.slot(i).val != want.v || !a.has(want.k) {
			t.Fatalf("entry %v missing or out of order", want)
		}
		i = a.slot(i).next
	}
	if i != 0 || a.size() != ref.Len() {
		t.Fatalf("%d entries, want %d", a.size(), ref.Len())
	}
}

// A container event's log key hashes the five strings (hashing on from
// the first four).
func TestLogKeyHash(t *testing.T) {
	k := logKey{agg: aggregateKey{"u", "Normal", "Pulled"}, msg: "m", fieldPath: "spec.containers{web}"}
	if got, want := k.hash(), hashStrings("u", "Normal", "Pulled", "m", "spec.containers{web}"); got != want {
		t.Errorf("hash %x, want %x", got, want)
	}
	if spam, agg := k.agg.keys(); spam != spamKey("u", "Normal") || agg != k.agg.hash() {
		t.Errorf("keys %x %x, want %x %x", spam, agg, spamKey("u", "Normal"), k.agg.hash())
	}
}

// Test-only views of an lru.

// has reports whether key is cached, touching nothing.
func (a *lru[V]) has(key uint64) bool { _, i := a.find(key); return i != 0 }

// ref names key's entry (which must be cached) without touching it.
func (a *lru[V]) ref(key uint64) lruRef {
	_, i := a.find(key)
	return lruRef{slot: i, gen: a.slot(i).gen}
}

// len is the number of entries, counted along the list.
func (a *lru[V]) len() int {
	n := 0
	for i := a.head; i != 0; i = a.slot(i).next {
		n++
	}
	return n
}

// add stores val under key as the most recently used (Cache.Add), and
// forgets the least recently used entry beyond the size. The pointer is
// good until the next add.
func (a *lru[V]) add(key uint64, val V) *V {
	if _, i := a.find(key); i != 0 {
		a.slot(i).val = val
		a.touch(i)
		return &a.slot(i).val
	}
	return a.insert(key, val)
}

// Reference forms of the keys the correlator builds in one pass (keys,
// hashFrom), which the tests compare against.

// hash is the key as the aggregator's LRU holds it.
func (k aggregateKey) hash() uint64 { return hashStrings(k.uid, k.typ, k.reason) }

// hash is the key as the logger's LRU holds it (see aggregateRecord).
func (k logKey) hash() uint64 { return k.hashFrom(k.agg.hash()) }

// spamKey is getSpamKey: source (the client), involved object and type,
// hashed as the LRU holds it (see aggregateRecord).
func spamKey(uid, typ string) uint64 { return hashStrings(uid, typ) }
