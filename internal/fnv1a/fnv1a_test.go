package fnv1a

import (
	"hash/fnv"
	"testing"
)

// The same values as hash/fnv's New64a, which the package stands in for.
func TestMatchesHashFNV(t *testing.T) {
	for _, s := range []string{"", "a", "10.244.1.2", "pods/default/web-6c64cbcbb9-p8scn", "Привет"} {
		want := fnv.New64a()
		want.Write([]byte(s))
		want.Write([]byte{0xff})
		if got := Offset.Str(s).Byte(0xff); uint64(got) != want.Sum64() {
			t.Errorf("%q: %x, want %x", s, uint64(got), want.Sum64())
		}
		if got := Offset.Bytes([]byte(s)).Byte(0xff); uint64(got) != want.Sum64() {
			t.Errorf("Bytes(%q): %x, want %x", s, uint64(got), want.Sum64())
		}
	}
}
