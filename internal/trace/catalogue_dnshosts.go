package trace

// CoreDNS's per-endpoint records of a headless Service (a StatefulSet's
// pods by name).

func dnsHostsEN() map[string]Entry {
	return map[string]Entry{
		"dns.host": {"CoreDNS: {fqdn} → {rr}",
			"A headless Service has no virtual IP: CoreDNS answers its name with one A record per ready endpoint, and gives every ready endpoint a name of its own, <hostname>.<service>.<namespace>.svc.cluster.local. The hostname is the endpoint's: the EndpointSlice controller copies a pod's spec.hostname onto its endpoint when the pod's spec.subdomain names the Service — what a StatefulSet sets on web-0 with serviceName nginx, hence web-0.nginx.default.svc.cluster.local. The name stays when the pod is re-created; only the address behind it changes (after the TTL, 30 s). An endpoint without a hostname is named by its IP with dashes (10-244-1-2.nginx…)."},
		"dns.hostgone": {"CoreDNS: {fqdn} no longer answered (was {rr})",
			"A per-pod name exists only while its endpoint is ready (unless the Service sets publishNotReadyAddresses): while a StatefulSet pod is replaced, web-2.nginx… answers NXDOMAIN, and clients must retry."},
	}
}

func dnsHostsRU() map[string]Entry {
	return map[string]Entry{
		"dns.host": {"CoreDNS: {fqdn} → {rr}",
			"У headless Service нет виртуального IP: CoreDNS отвечает на его имя одной A-записью на каждый готовый endpoint и даёт каждому готовому endpoint'у собственное имя <hostname>.<service>.<namespace>.svc.cluster.local. hostname берётся из endpoint'а: контроллер EndpointSlice копирует в него spec.hostname пода, если spec.subdomain пода совпадает с именем Service, — это и делает StatefulSet для web-0 при serviceName nginx, отсюда web-0.nginx.default.svc.cluster.local. При пересоздании пода имя остаётся, меняется только адрес за ним (после TTL, 30 с). endpoint без hostname называется своим IP через дефисы (10-244-1-2.nginx…)."},
		"dns.hostgone": {"CoreDNS: {fqdn} больше не отвечает (было {rr})",
			"Имя пода существует, только пока его endpoint готов (если Service не задаёт publishNotReadyAddresses): пока под StatefulSet заменяется, web-2.nginx… отвечает NXDOMAIN, и клиентам приходится повторять запрос."},
	}
}
