package oracle

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
)

//go:embed known_differences.json
var knownJSON []byte

var knownTable = sync.OnceValue(func() *Table {
	t := &Table{}
	if err := json.Unmarshal(knownJSON, t); err != nil {
		panic("oracle: known_differences.json: " + err.Error()) // TestKnownDifferences keeps it valid
	}
	return t
})

// KnownReason is the reason docs/FIDELITY.md gives for the first known
// difference of check whose reason contains substr ("" when none does):
// what `trace apply --kubeconfig --compare` quotes for a difference the
// recordings of a real control plane already explained.
func KnownReason(check, substr string) string {
	for _, k := range knownTable().Differences {
		if k.Check == check && strings.Contains(k.Reason, substr) {
			return k.Reason
		}
	}
	return ""
}
