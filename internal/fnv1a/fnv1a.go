// Package fnv1a is the 64-bit FNV-1a hash (hash/fnv's New64a) as a value:
// hashing a string or a byte allocates nothing and returns the next state,
// so callers on hot paths chain h.Str(a).Byte(0).Str(b).
package fnv1a

// Hash is an FNV-1a state; Offset is the empty input's.
type Hash uint64

// Offset is FNV-1a's 64-bit offset basis.
const Offset Hash = 14695981039346656037

const prime = 1099511628211

// Byte mixes one byte in.
func (h Hash) Byte(b byte) Hash { return (h ^ Hash(b)) * prime }

// Str mixes the bytes of s in.
func (h Hash) Str(s string) Hash {
	for i := 0; i < len(s); i++ {
		h = h.Byte(s[i])
	}
	return h
}

// Bytes mixes the bytes of b in (Str of string(b), with no string made).
func (h Hash) Bytes(b []byte) Hash {
	for _, c := range b {
		h = h.Byte(c)
	}
	return h
}
