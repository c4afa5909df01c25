// Package grpclb models why gRPC through a ClusterIP Service loads one pod
// and what spreads the load: connection-level balancing (kube-proxy's DNAT
// picks a pod once per TCP connection, and a gRPC channel with the default
// pick_first policy keeps one HTTP/2 connection for every RPC) against
// request-level balancing (round_robin over the addresses a headless
// Service's DNS answer lists, or an L7 proxy such as Envoy).
//
// The run is a discrete-event simulation on internal/sim/engine: virtual
// time, one seeded random source, no goroutines, no wall clock. Each mode
// (ClusterIP + pick_first, headless + round_robin, Envoy) replays the same
// workload in its own engine with the same seed, so adding a mode never
// changes another mode's numbers. Connection choices through the ClusterIP
// are made by kubeproxy.Ruleset.WalkNew on the rules kube-proxy would write,
// exactly as the dnat command shows them.
//
// What it models from grpc-go (v1.85.0): pick_first's single connection that
// goes IDLE on loss and reconnects on the next RPC (balancer/pickfirst); the
// round_robin picker over READY subchannels only, starting at a random index
// (balancer/endpointsharding); re-resolution only when a connection is lost
// (clientconn.go "Refresh the name resolver on any connection loss"), at
// most once per 30 s (internal/resolver/dns MinResolutionInterval); the
// server's MaxConnectionAge with ±10 % jitter and GOAWAY
// (internal/transport/http2_server.go keepalive, getJitter).
//
// Left out: RPC duration and in-flight RPCs across a GOAWAY (RPCs are
// instantaneous, so MaxConnectionAgeGrace never matters), connection set-up
// latency beyond a fixed 1 ms, CoreDNS's cache (kubeadm's "cache 30" can add
// up to 30 s before a new pod is in the answer), kube-proxy sync delay,
// keepalive pings, and Envoy's own connection pools.
package grpclb
