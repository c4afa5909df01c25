package sim

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// TestProxyDiff checks that the merge walk leaves a Service's count, sum
// and IP references exactly where counting all of old out and all of now
// in does, for slices whose writes change, add and drop pods in name order,
// and for endpoints without a target (no order to walk by).
func TestProxyDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	endpoint := func(i int, ready, ref bool) discoveryv1.Endpoint {
		ep := discoveryv1.Endpoint{Addresses: []string{fmt.Sprintf("10.0.%d.%d", i/250, i%250)},
			Conditions: discoveryv1.EndpointConditions{Ready: &ready}}
		if ref {
			ep.TargetRef = &corev1.ObjectReference{Kind: "Pod", Name: fmt.Sprintf("web-%04d", i)}
		}
		return ep
	}
	for round := range 500 {
		ref := round%5 != 0
		var old, now []discoveryv1.Endpoint
		for i := range 100 {
			in, ready := r.IntN(4) != 0, r.IntN(3) != 0
			if in {
				old = append(old, endpoint(i, ready, ref))
			}
			if r.IntN(5) == 0 { // this pod changes: joins, leaves, flips, or moves IP
				in, ready = r.IntN(4) != 0, !ready
			}
			if in {
				ep := endpoint(i, ready, ref)
				if r.IntN(20) == 0 {
					ep.Addresses = []string{fmt.Sprintf("10.9.%d.%d", i/250, i%250)}
				}
				now = append(now, ep)
			}
		}
		walk, whole := newDiffAgent(), newDiffAgent()
		pw, pa := &proxyService{counted: true}, &proxyService{counted: true}
		walk.add(pw, old, 1)
		whole.add(pa, old, 1)
		walk.settleRoutes()
		whole.settleRoutes()
		walk.diff(pw, old, now)
		whole.add(pa, old, -1)
		whole.add(pa, now, 1)
		var gone [2][]string
		walk.onRemoved = func(ip string) { gone[0] = append(gone[0], ip) }
		whole.onRemoved = func(ip string) { gone[1] = append(gone[1], ip) }
		walk.settleRoutes()
		whole.settleRoutes()
		if walk.routed != whole.routed || !slices.Equal(gone[0], gone[1]) || len(walk.refs) != len(walk.counts()) {
			t.Fatalf("round %d: routed %d %v, whole %d %v", round, walk.routed, gone[0], whole.routed, gone[1])
		}
		if *pw != *pa || !maps.Equal(walk.counts(), whole.counts()) {
			t.Fatalf("round %d: walk %+v %v, whole %+v %v", round, *pw, walk.counts(), *pa, whole.counts())
		}
	}
}

func newDiffAgent() *proxyAgent {
	return &proxyAgent{loud: true, refs: map[string]ipRefs{}}
}

// counts is refs without the IPs no endpoint carries.
func (p *proxyAgent) counts() map[string]int32 {
	m := map[string]int32{}
	for ip, r := range p.refs {
		if r.n != 0 {
			m[ip] = r.n
		}
	}
	return m
}
