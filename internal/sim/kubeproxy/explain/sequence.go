package explain

import (
	"fmt"
	"net"
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

func participants(c cat) []report.Participant {
	return []report.Participant{
		{ID: "client", Label: c.F("seq.client")},
		{ID: "kernel", Label: c.F("seq.kernel")},
		{ID: "ct", Label: "conntrack"},
		{ID: "pod", Label: c.F("seq.pod")},
	}
}

func walkSequence(c cat, in Input, w kubeproxy.Walk) *report.Sequence {
	sp := in.Port
	vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
	cl := net.JoinHostPort(w.Before.Src, strconv.Itoa(w.Before.SPort))
	return &report.Sequence{Participants: participants(c), Messages: []report.Message{
		{From: "client", To: "kernel", Text: fmt.Sprintf("SYN %s → %s", cl, vip)},
		{From: "kernel", To: "ct", Text: c.F("seq.lookup")},
		{From: "kernel", Note: true, Text: fmt.Sprintf("PREROUTING → KUBE-SERVICES → %s → %s", sp.SVCChain(), w.SEP)},
		{From: "kernel", Note: true, Text: "DNAT " + vip + " → " + w.Endpoint},
		{From: "kernel", To: "ct", Text: c.F("seq.record", vip, w.Endpoint)},
		{From: "kernel", To: "pod", Text: fmt.Sprintf("SYN %s → %s", cl, w.Endpoint)},
		{From: "pod", To: "kernel", Reply: true, Text: fmt.Sprintf("SYN-ACK %s → %s", w.Endpoint, cl)},
		{From: "kernel", To: "ct", Text: c.F("seq.reverse")},
		{From: "kernel", To: "client", Reply: true, Text: fmt.Sprintf("SYN-ACK %s → %s", vip, cl)},
		{From: "client", To: "pod", Text: c.F("seq.later")},
	}}
}

func rejectSequence(c cat, in Input, client string, sport int) *report.Sequence {
	sp := in.Port
	vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
	cl := net.JoinHostPort(client, strconv.Itoa(sport))
	ps := participants(c)[:2]
	return &report.Sequence{Participants: ps, Messages: []report.Message{
		{From: "client", To: "kernel", Text: fmt.Sprintf("SYN %s → %s", cl, vip)},
		{From: "kernel", Note: true, Text: "filter FORWARD → KUBE-SERVICES → REJECT"},
		{From: "kernel", To: "client", Reply: true, Text: c.F("seq.refused")},
	}}
}

func modeSequence(c cat, in Input, ep, how string) *report.Sequence {
	sp := in.Port
	vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
	return &report.Sequence{Participants: participants(c), Messages: []report.Message{
		{From: "client", To: "kernel", Text: "SYN → " + vip},
		{From: "kernel", Note: true, Text: how},
		{From: "kernel", To: "ct", Text: c.F("seq.record", vip, ep)},
		{From: "kernel", To: "pod", Text: "SYN → " + ep},
		{From: "pod", To: "kernel", Reply: true, Text: "SYN-ACK"},
		{From: "kernel", To: "client", Reply: true, Text: c.F("seq.reverse")},
	}}
}
