package controller

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

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

// PodTemplateHash computes the pod-template-hash label: FNV-1a 32 over the
// pod template, then collisionCount if set, printed in decimal and safe-
// encoded (pkg/controller/controller_utils.go ComputeHash). Upstream hashes
// a go-spew dump of the template; we hash its canonical JSON, so the value
// differs but the shape (up to 10 characters of that alphabet) is the same.
func PodTemplateHash(t *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	data, _ := json.Marshal(t) // a PodTemplateSpec always marshals
	h.Write(data)
	if collisionCount != nil {
		n := uint64(*collisionCount)
		var b [8]byte
		for i := range b {
			b[i] = byte(n >> (8 * i))
		}
		h.Write(b[:])
	}
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}
