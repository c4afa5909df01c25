package dns

import (
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
)

func TestLookup(t *testing.T) {
	eps := []Endpoint{{IP: "10.244.2.2", Ready: true}, {IP: "10.244.1.2", Ready: true, Hostname: "web-0"}, {IP: "10.244.3.2"}}
	a := Lookup(Service{Namespace: "default", Name: "web", ClusterIP: "10.96.47.112", Endpoints: eps}, "cluster.local", 30)
	if len(a.Records) != 1 || a.Records[0].String() != "web.default.svc.cluster.local.\t30\tIN\tA\t10.96.47.112" {
		t.Errorf("ClusterIP answer: %+v", a.Records)
	}
	h := Lookup(Service{Namespace: "default", Name: "web", ClusterIP: "None", Endpoints: eps}, "cluster.local.", 30)
	if len(h.Records) != 2 || h.Records[0].Data != "10.244.1.2" || h.Hostnames[0].Name != "web-0.web.default.svc.cluster.local." ||
		h.Hostnames[1].Name != "10-244-2-2.web.default.svc.cluster.local." {
		t.Errorf("headless answer: %+v %+v", h.Records, h.Hostnames)
	}
	all := Lookup(Service{Namespace: "default", Name: "web", ClusterIP: "None", Endpoints: eps, PublishNotReadyAddresses: true}, "cluster.local", 30)
	if len(all.Records) != 3 {
		t.Errorf("publishNotReadyAddresses: %d records", len(all.Records))
	}
	nx := Lookup(Service{Namespace: "default", Name: "web", ClusterIP: "None", Endpoints: eps[2:]}, "cluster.local", 30)
	if !nx.NXDomain {
		t.Error("headless without ready endpoints should be NXDOMAIN")
	}
	c := Lookup(Service{Namespace: "default", Name: "db", ExternalName: "db.example.com"}, "cluster.local", 30)
	if len(c.Records) != 1 || c.Records[0].Type != "CNAME" || c.Records[0].Data != "db.example.com." {
		t.Errorf("ExternalName: %+v", c.Records)
	}
	v6 := Lookup(Service{Namespace: "default", Name: "web", ClusterIP: "fd00::1"}, "cluster.local", 5)
	if !strings.Contains(v6.Records[0].String(), "AAAA") {
		t.Errorf("IPv6: %s", v6.Records[0])
	}
}
