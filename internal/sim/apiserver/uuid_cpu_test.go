package apiserver

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// uuidText writes what the Sprintf it replaced wrote.
func TestUUIDTextIsSprintf(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a, b, c, d, e := r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, 0x8000|r.Uint32()&0x3fff, r.Uint64()&0xffffffffffff
		want := fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a, b, c, d, e)
		if got := uuidText(a, b, c, d, e); got != want {
			t.Fatalf("uuidText = %s, want %s", got, want)
		}
	}
	if got, want := uuidText(0, 0, 0, 0x8000, 0), "00000000-0000-4000-8000-000000000000"; got != want {
		t.Fatalf("uuidText zeros = %s, want %s", got, want)
	}
}
