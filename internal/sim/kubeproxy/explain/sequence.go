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

func walkSequence(c cat, in Input, w kubeproxy.Walk, chain string) *report.Sequence {
	sp := in.Port
	vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
	cl := net.JoinHostPort(w.Before.Src, strconv.Itoa(w.Before.SPort))
	return &report.Sequence{Participants: participants(c), Messages: []report.Message{
		{From: "client", To: "kernel", Text: fmt.Sprintf("%s %s → %s", first(sp.Proto()), cl, vip)},
		{From: "kernel", To: "ct", Text: c.F("seq.lookup")},
		{From: "kernel", Note: true, Text: fmt.Sprintf("PREROUTING → KUBE-SERVICES → %s → %s", chain, w.SEP)},
		{From: "kernel", Note: true, Text: "DNAT " + vip + " → " + w.Endpoint},
		{From: "kernel", To: "ct", Text: c.F("seq.record", vip, w.Endpoint)},
		{From: "kernel", To: "pod", Text: fmt.Sprintf("%s %s → %s", first(sp.Proto()), net.JoinHostPort(w.After.Src, strconv.Itoa(w.Before.SPort)), w.Endpoint)},
		{From: "pod", To: "kernel", Reply: true, Text: fmt.Sprintf("%s %s → %s", reply(sp.Proto()), w.Endpoint, net.JoinHostPort(w.After.Src, strconv.Itoa(w.Before.SPort)))},
		{From: "kernel", To: "ct", Text: c.F("seq.reverse")},
		{From: "kernel", To: "client", Reply: true, Text: fmt.Sprintf("%s %s → %s", reply(sp.Proto()), vip, cl)},
		{From: "client", To: "pod", Text: c.F("seq.later")},
	}}
}

// first and reply name the first packet of a connection and its answer.
func first(proto string) string {
	return map[string]string{"tcp": "SYN", "udp": "UDP", "sctp": "INIT"}[proto]
}

func reply(proto string) string {
	return map[string]string{"tcp": "SYN-ACK", "udp": "UDP", "sctp": "INIT-ACK"}[proto]
}

func rejectSequence(c cat, in Input, client string, sport int, verdict string) *report.Sequence {
	sp := in.Port
	vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
	cl := net.JoinHostPort(client, strconv.Itoa(sport))
	ps := participants(c)[:2]
	seq := &report.Sequence{Participants: ps, Messages: []report.Message{
		{From: "client", To: "kernel", Text: fmt.Sprintf("%s %s → %s", first(sp.Proto()), cl, vip)},
		{From: "kernel", Note: true, Text: "filter FORWARD → KUBE-SERVICES → " + verdict},
	}}
	if verdict == "REJECT" {
		seq.Messages = append(seq.Messages, report.Message{From: "kernel", To: "client", Reply: true, Text: c.F("seq.refused")})
	} else {
		seq.Messages = append(seq.Messages, report.Message{From: "kernel", Note: true, Text: c.F("seq.dropped")})
	}
	return seq
}

func modeSequence(c cat, in Input, ep, how string) *report.Sequence {
	sp := in.Port
	vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
	return &report.Sequence{Participants: participants(c), Messages: []report.Message{
		{From: "client", To: "kernel", Text: first(sp.Proto()) + " → " + vip},
		{From: "kernel", Note: true, Text: how},
		{From: "kernel", To: "ct", Text: c.F("seq.record", vip, ep)},
		{From: "kernel", To: "pod", Text: first(sp.Proto()) + " → " + ep},
		{From: "pod", To: "kernel", Reply: true, Text: reply(sp.Proto())},
		{From: "kernel", To: "client", Reply: true, Text: c.F("seq.reverse")},
	}}
}
