package apiserver

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

// A counted Event's key is hashed from its parts as the store hashes the
// key string, for both Event APIs.
func TestEventKeyHashMatchesKey(t *testing.T) {
	for _, res := range []*eventRes{coreEvents, v1Events} {
		for _, w := range []eventWrite{{res: res, ns: "default", obj: "web-7d4b9c-x2k4p", nano: 0x188a1b2c3d4e5f60}, {res: res, ns: "kube-system", obj: "", nano: 1}} {
			w := w
			if got, want := w.keyHash(), hashKey(Key(res.Resource, w.ns, w.name())); got != want {
				t.Errorf("%s %s/%s: keyHash %x, hashKey(Key) %x", res.Group, w.ns, w.name(), got, want)
			}
		}
	}
}

// The uid drawn for a counted Event, written out later, is the one stamp
// writes from the same draws.
func TestUIDDrawString(t *testing.T) {
	u := uidDraw{hi: 0x0123abcd<<32 | 0x4567<<16 | 0x89ab, lo: 0xcde<<48 | 0x0123456789ab}
	if got, want := u.String(), "0123abcd-4567-4cde-89ab-0123456789ab"; got != want {
		t.Errorf("uid %s, want %s", got, want)
	}
}

// The uid text stamp writes reads back into its draw; any other text is
// kept as it is.
func TestParseUID(t *testing.T) {
	u := uidDraw{hi: 0x0123abcd<<32 | 0x4567<<16 | 0x89ab, lo: 0xcde<<48 | 0x0123456789ab}
	if got, ok := parseUID(u.String()); !ok || got != u {
		t.Errorf("parseUID(%s) = %v %v, want %v", u, got, ok, u)
	}
	var c correlator
	for _, s := range []string{"0123ABCD-4567-4cde-89ab-0123456789ab", "00000000-0000-4000-0000-000000000000", "web-uid", ""} {
		if got := c.eventUID(c.logUID(eventUID{s: types.UID(s)})).get(); string(got) != s {
			t.Errorf("uid %q kept as %q", s, got)
		}
	}
}
