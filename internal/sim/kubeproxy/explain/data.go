package explain

// Data is the --format json output of dnat: the facts behind the text, in
// a stable shape (field names are part of the interface).
type Data struct {
	Service   string `json:"service"`
	ClusterIP string `json:"clusterIP,omitempty"`
	Port      int32  `json:"port"`
	Protocol  string `json:"protocol"`
	Mode      string `json:"mode"`
	// Type is spec.type; NodePort the port's nodePort (0: none).
	Type     string `json:"type,omitempty"`
	NodePort int32  `json:"nodePort,omitempty"`
	// Node is the node whose rules are shown.
	Node string `json:"node,omitempty"`
	// Form is restore or save (iptables mode only).
	Form string `json:"form,omitempty"`
	// Proxied is false for headless and ExternalName Services.
	Proxied      bool           `json:"proxied"`
	ServiceChain string         `json:"serviceChain,omitempty"`
	Endpoints    []DataEndpoint `json:"endpoints"`
	// Rules is the restore or save text (iptables), ipvsadm listing
	// (ipvs) or nft transaction (nftables).
	Rules string    `json:"rules,omitempty"`
	Walk  *DataWalk `json:"walk,omitempty"`
	// ExternalWalks are connections from outside the cluster to the
	// NodePort and the load-balancer IP.
	ExternalWalks []*DataWalk `json:"externalWalks,omitempty"`
	Connections   []DataCount `json:"connections,omitempty"`
	// DNS holds the answer records in zone-file form.
	DNS   []string    `json:"dns,omitempty"`
	Scale []DataScale `json:"scale,omitempty"`
}

// DataEndpoint is one usable endpoint in rule order.
type DataEndpoint struct {
	Endpoint string `json:"endpoint"`
	Chain    string `json:"chain,omitempty"`
	// Probability is the --probability text ("" for the last rule);
	// Stored is how iptables-save prints it back.
	Probability string `json:"probability,omitempty"`
	Stored      string `json:"stored,omitempty"`
}

// DataWalk is the first connection's walk.
type DataWalk struct {
	Client     string `json:"client"`
	SourcePort int    `json:"sourcePort"`
	Endpoint   string `json:"endpoint,omitempty"`
	Chain      string `json:"chain,omitempty"`
	Verdict    string `json:"verdict"`
	// Draws are the statistic draws as fractions of 2^31, in order.
	Draws      []float64 `json:"draws,omitempty"`
	Masquerade bool      `json:"masquerade"`
	RulesTried int       `json:"rulesTried"`
	// Destination is where the client sent the packet (ip:port).
	Destination string `json:"destination,omitempty"`
	// Hairpin: the endpoint chosen is the client itself.
	Hairpin bool `json:"hairpin,omitempty"`
}

// DataCount is where the K extra connections went.
type DataCount struct {
	Endpoint string  `json:"endpoint"`
	Count    int     `json:"count"`
	Percent  float64 `json:"percent"`
}

// DataScale is one row of the growth table.
type DataScale struct {
	Services            int  `json:"services"`
	EndpointsPerService int  `json:"endpointsPerService"`
	IPTablesNATRules    int  `json:"iptablesNatRules"`
	IPTablesWorstScan   int  `json:"iptablesWorstScan"`
	IPVSVirtual         int  `json:"ipvsVirtualServers"`
	IPVSReal            int  `json:"ipvsRealServers"`
	NFTRules            int  `json:"nftRules"`
	NFTPerPacket        int  `json:"nftRulesPerNewConnection"`
	LargeCluster        bool `json:"largeCluster"`
}
