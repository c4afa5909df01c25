package kubeproxy

import "testing"

func TestNodeNamesAndIPs(t *testing.T) {
	if NodeName(0) != "node-a" || NodeName(2) != "node-c" {
		t.Errorf("NodeName(0), (2) = %s, %s; want node-a, node-c", NodeName(0), NodeName(2))
	}
	for name, want := range map[string]string{"node-a": "192.168.0.11", "node-d": "192.168.0.14", "worker-1": "192.168.0.10"} {
		if got := NodeIP(name); got != want {
			t.Errorf("NodeIP(%s) = %s, want %s", name, got, want)
		}
	}
}

func TestClientOnNode(t *testing.T) {
	eps := []Endpoint{{IP: "10.244.1.5", NodeName: "node-a"}, {IP: "10.244.1.6", NodeName: "node-a"}, {IP: "10.244.2.5", NodeName: "node-b"}}
	if got := ClientOnNode(eps, "node-a"); got != "10.244.1.7" {
		t.Errorf("client on node-a = %s, want the first free address of its /24, 10.244.1.7", got)
	}
	if got := ClientOnNode(eps, "node-c"); got != "" {
		t.Errorf("client on a node without endpoints = %q, want none", got)
	}
}
