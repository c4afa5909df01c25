package etcd

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
)

// TestDump prints a scenario's events (DUMP="nodes kind arg cq pv").
func TestDump(t *testing.T) {
	spec := os.Getenv("DUMP")
	if spec == "" {
		t.Skip("DUMP not set")
	}
	f := strings.Fields(spec)
	n, _ := strconv.Atoi(f[0])
	sc := Scenario{Nodes: n, CheckQuorum: f[3] == "1", PreVote: f[4] == "1"}
	switch f[1] {
	case "crash":
		sc.Fault.Kind = FaultCrash
		sc.Fault.Crash, _ = strconv.Atoi(f[2])
	case "part":
		sc.Fault.Kind = FaultPartition
		for _, g := range strings.Split(f[2], ",") {
			k, _ := strconv.Atoi(g)
			sc.Fault.Groups = append(sc.Fault.Groups, k)
		}
	}
	s, err := Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Events {
		if e.Kind == KindMessage {
			continue
		}
		e.Write = nil
		b, _ := json.Marshal(e)
		fmt.Println(string(b))
	}
}
