package controller

import (
	"encoding/binary"
	"hash/fnv"
	"strconv"
	"sync"

	"github.com/davecgh/go-spew/spew"
	corev1 "k8s.io/api/core/v1"
)

// alphanums is the alphabet of apimachinery's rand.SafeEncodeString: no
// vowels (so no words) and no confusable characters.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// safeEncode maps every byte of s to alphanums[b % 27], as SafeEncodeString does.
func safeEncode(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = alphanums[int(c)%len(alphanums)]
	}
	return string(b)
}

// hashDump is the go-spew configuration upstream hashes with
// (k8s.io/utils/dump ForHash, used by pkg/util/hash DeepHashObject). The
// hash is over this exact text, so every option matters: sorted map keys,
// methods disabled (a Quantity prints its internal fields, not its String),
// no pointer addresses or capacities.
var hashDump = spew.ConfigState{
	Indent:                  " ",
	SortKeys:                true,
	DisableMethods:          true,
	SpewKeys:                true,
	DisablePointerAddresses: true,
	DisableCapacities:       true,
}

// PodTemplateHash computes the pod-template-hash label as the Deployment
// controller does (pkg/controller/controller_utils.go ComputeHash): FNV-1a 32
// over the go-spew "%#v" dump of the pod template, then, if set, the collision
// count as 4 little-endian bytes padded to 8, the sum printed in decimal and
// safe-encoded.
//
// The dump shows Go-level details (nil versus empty slices and maps, a
// Quantity's internal amount), so the template is first put in the shape the
// real controller sees: the object the API server stored, decoded by an
// informer from protobuf (kube-controller-manager's default content type).
// A protobuf round trip does exactly that: empty lists become nil and every
// Quantity is re-parsed from its canonical string.
func PodTemplateHash(t *corev1.PodTemplateSpec, collisionCount *int32) string {
	tmpl := t
	data, err := t.Marshal()
	var key string
	if err == nil {
		// The hash is a function of the protobuf bytes and the count: a
		// Deployment synced once per pod change hashes the same template
		// each time, so the dump is made once per distinct template.
		if collisionCount != nil {
			key = "\x00" + strconv.Itoa(int(*collisionCount))
		}
		if h, ok := hashMemo.get(data, key); ok {
			return h
		}
		key = string(data) + key
		var rt corev1.PodTemplateSpec
		if rt.Unmarshal(data) == nil {
			tmpl = &rt
		}
	}
	out := dumpHash(tmpl, collisionCount)
	if err == nil {
		hashMemo.put(key, out)
	}
	return out
}

// memo remembers the hashes of the last few templates (reset when full:
// a run has a handful of templates).
type memo struct {
	mu sync.Mutex
	m  map[string]string
}

var hashMemo memo

// get looks up the key data+suffix; with no suffix, without building it
// (a map index by string(data) does not copy the bytes).
func (m *memo) get(data []byte, suffix string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if suffix == "" {
		v, ok := m.m[string(data)]
		return v, ok
	}
	v, ok := m.m[string(data)+suffix]
	return v, ok
}

func (m *memo) put(k, v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= 64 {
		m.m = map[string]string{}
	}
	m.m[k] = v
}

func dumpHash(tmpl *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	hashDump.Fprintf(h, "%#v", *tmpl)
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:], uint32(*collisionCount))
		h.Write(b[:])
	}
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}
