// Package dns computes the answer cluster DNS (CoreDNS's kubernetes plugin,
// per the kubernetes/dns specification) gives for a Service: one A/AAAA
// record with the cluster IP for a ClusterIP Service, one record per ready
// endpoint for a headless Service (plus a per-endpoint hostname record), a
// CNAME for ExternalName. It is a pure function of its input.
//
// Left out: SRV records (CoreDNS's weights are not checked yet), PTR
// records, search-path expansion and negative caching.
package dns

import (
	"fmt"
	"sort"
	"strings"
)

// DefaultTTL is the TTL kubeadm configures in the CoreDNS Corefile (the
// plugin's own default is 5 seconds).
const DefaultTTL = 30

// Service is the part of a Service (and its EndpointSlices) DNS looks at.
type Service struct {
	Namespace, Name string
	ClusterIP       string // "" or "None": headless
	ExternalName    string
	// PublishNotReadyAddresses publishes endpoints that are not ready.
	PublishNotReadyAddresses bool
	Endpoints                []Endpoint
}

// Endpoint is one address of the Service.
type Endpoint struct {
	IP       string
	Hostname string
	Ready    bool
}

// Record is one resource record of the answer.
type Record struct {
	Name string
	TTL  int
	Type string // A, AAAA or CNAME
	Data string
}

// String is the record in zone-file form, as dig prints it.
func (r Record) String() string {
	return fmt.Sprintf("%s\t%d\tIN\t%s\t%s", r.Name, r.TTL, r.Type, r.Data)
}

// Answer is the result for the Service's name.
type Answer struct {
	Query string
	// NXDomain is set for a headless Service without ready endpoints.
	NXDomain bool
	Records  []Record
	// Hostnames are the per-endpoint names of a headless Service.
	Hostnames []Record
}

func addrType(ip string) string {
	if strings.Contains(ip, ":") {
		return "AAAA"
	}
	return "A"
}

// Lookup answers the query for <name>.<ns>.svc.<zone>.
func Lookup(svc Service, zone string, ttl int) Answer {
	q := fmt.Sprintf("%s.%s.svc.%s.", svc.Name, svc.Namespace, strings.TrimSuffix(zone, "."))
	a := Answer{Query: q}
	switch {
	case svc.ExternalName != "":
		a.Records = []Record{{q, ttl, "CNAME", strings.TrimSuffix(svc.ExternalName, ".") + "."}}
	case svc.ClusterIP != "" && svc.ClusterIP != "None":
		a.Records = []Record{{q, ttl, addrType(svc.ClusterIP), svc.ClusterIP}}
	default:
		seen := map[string]bool{}
		eps := append([]Endpoint(nil), svc.Endpoints...)
		sort.SliceStable(eps, func(i, j int) bool { return eps[i].IP < eps[j].IP })
		for _, ep := range eps {
			if (!ep.Ready && !svc.PublishNotReadyAddresses) || seen[ep.IP] {
				continue
			}
			seen[ep.IP] = true
			a.Records = append(a.Records, Record{q, ttl, addrType(ep.IP), ep.IP})
			host := ep.Hostname
			if host == "" {
				// CoreDNS names an endpoint without hostname by its dashed IP.
				host = strings.NewReplacer(".", "-", ":", "-").Replace(ep.IP)
			}
			a.Hostnames = append(a.Hostnames, Record{host + "." + q, ttl, addrType(ep.IP), ep.IP})
		}
		a.NXDomain = len(a.Records) == 0
	}
	return a
}
