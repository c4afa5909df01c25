package task

import "github.com/k8sexplain/k8sexplain/internal/provenance"

// Provenance is the tasks' hints, each with the upstream files its task
// names (sources:) and the release they were read against (checked:).
func Provenance() provenance.Catalogue {
	all, err := All()
	c := provenance.Catalogue{Name: "task: hints", Package: "internal/task", Texts: map[string]string{}, Sources: map[string]provenance.Source{},
		Note: "Each task's hint, with the sources its file names for the hint and the goals."}
	if err != nil {
		return c
	}
	for _, t := range all {
		c.Texts[t.ID] = t.Hint.En
		c.Sources[t.ID] = provenance.K8s(t.Checked, t.Sources...)
	}
	return c
}
