package explain

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// chainGraph is the figure of --format html: KUBE-SERVICES jumps to the
// service chain, which picks an endpoint chain by the statistic rules'
// probabilities (the last one takes the rest), which DNATs to the pod; the
// path w took is hot. A Service with no usable endpoints has no graph.
func chainGraph(sp kubeproxy.ServicePort, w *kubeproxy.Walk) *report.Graph {
	eps := sp.UsableEndpoints()
	if len(eps) == 0 {
		return nil
	}
	svc := sp.SVCChain()
	g := &report.Graph{Nodes: []report.GraphNode{
		{ID: "services", Label: "KUBE-SERVICES", Layer: 0, Hot: true},
		{ID: svc, Label: svc, Layer: 1, Hot: true},
	}}
	g.Edges = append(g.Edges, report.GraphEdge{From: "services", To: svc, Label: hostPort(sp.ClusterIP, int(sp.Port)), Hot: true})
	n := len(eps)
	for i, ep := range eps {
		sep := sp.SEPChain(ep)
		hot := sep == w.SEP
		// The rule of endpoint i matches with probability 1/(n-i) of what
		// is left (kube-proxy's proxier.go writes them so); the last matches all.
		p := "—"
		if i < n-1 {
			p = kubeproxy.Probability(n - i)
		}
		g.Nodes = append(g.Nodes, report.GraphNode{ID: sep, Label: sep, Layer: 2, Hot: hot},
			report.GraphNode{ID: "ep:" + ep.String(), Label: ep.String(), Layer: 3, Hot: hot})
		g.Edges = append(g.Edges, report.GraphEdge{From: svc, To: sep, Label: p, Hot: hot},
			report.GraphEdge{From: sep, To: "ep:" + ep.String(), Label: "DNAT", Hot: hot})
	}
	return g
}

// walkedLines are the 0-based lines of the rules text that the walk
// matched, for the HTML page to highlight.
func walkedLines(rules string, w *kubeproxy.Walk) []int {
	want := map[string]bool{}
	for _, st := range w.Steps {
		if st.Matched {
			want[st.Rule.Text()] = true
		}
	}
	var out []int
	for i, l := range strings.Split(rules, "\n") {
		if want[strings.TrimSpace(l)] {
			out = append(out, i)
		}
	}
	return out
}
