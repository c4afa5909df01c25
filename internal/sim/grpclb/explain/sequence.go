package explain

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/dns"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// maxSeqPods bounds the pod lifelines the diagram draws.
const maxSeqPods = 4

// sequence draws the first client's two ways for --format mermaid: one
// DNATed connection carrying every RPC, and round_robin over the DNS answer.
func sequence(c cat, r *grpclb.Result) *report.Sequence {
	ci, hl := modeOf(r, grpclb.ModeClusterIP), modeOf(r, grpclb.ModeHeadless)
	first := ci.Conns[0]
	n := min(r.Config.Pods, maxSeqPods)
	shown := map[int]bool{}
	s := &report.Sequence{Participants: []report.Participant{{ID: "client", Label: "client-0"}}}
	if r.Live == nil {
		s.Participants = append(s.Participants, report.Participant{ID: "rules", Label: c.F("seq.rules")},
			report.Participant{ID: "dns", Label: c.F("seq.dns")})
	} else {
		s.Participants = append(s.Participants, report.Participant{ID: "rules", Label: c.F("seq.proxy")},
			report.Participant{ID: "dns", Label: "resolver/manual"})
	}
	for p := 0; p < r.Config.Pods; p++ {
		if p < n || p == first.Pod {
			shown[p] = true
			s.Participants = append(s.Participants, report.Participant{ID: fmt.Sprintf("pod%d", p), Label: r.Pods[p].Name})
		}
	}
	pod := func(p int) string { return fmt.Sprintf("pod%d", p) }
	vip := fmt.Sprintf("%s:%d", grpclb.ClusterIP, grpclb.Port)
	if r.Live != nil {
		vip = r.Live.Proxy
	}
	m := []report.Message{
		{From: "client", Section: true, Text: c.F("seq.ci")},
		{From: "client", To: "rules", Text: "SYN → " + vip},
	}
	if first.Chain != "" {
		m = append(m, report.Message{From: "rules", Note: true, Text: fmt.Sprintf("%s → DNAT %s", first.Chain, r.Pods[first.Pod].IP)})
	}
	m = append(m,
		report.Message{From: "rules", To: pod(first.Pod), Text: "SYN"},
		report.Message{From: "client", To: pod(first.Pod), Text: c.F("seq.rpcs", first.RPCs)},
		report.Message{From: "client", Section: true, Text: c.F("seq.hl")})
	if r.Live == nil {
		a := dns.Lookup(grpclb.Headless(r.Pods, 0), "cluster.local", dns.DefaultTTL)
		var ips []string
		for _, rec := range a.Records {
			ips = append(ips, rec.Data)
		}
		m = append(m, report.Message{From: "client", To: "dns", Text: "A? " + a.Query},
			report.Message{From: "dns", To: "client", Reply: true, Text: strings.Join(ips, ", ")})
	} else {
		m = append(m, report.Message{From: "dns", To: "client", Reply: true, Text: c.F("seq.manual", len(r.Pods))})
	}
	for p := 0; p < n; p++ {
		m = append(m, report.Message{From: "client", To: pod(p), Text: c.F("seq.conn")})
	}
	for i := 0; i < 2*n; i++ {
		m = append(m, report.Message{From: "client", To: pod(i % n), Text: fmt.Sprintf("RPC %d", i+1)})
	}
	m = append(m, report.Message{From: "client", Note: true, Text: c.F("seq.rr", sum(hl.Counts))})
	s.Messages = m
	return s
}
