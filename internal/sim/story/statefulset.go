package story

import (
	"sort"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
)

// StatefulSetTable lists the set's pods at the end of the story by
// ordinal: the revision each was made from (controller-revision-hash),
// whether it is the update revision, and its claim.
func (c *Scene) StatefulSetTable(ns, name string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "sts.title", Left: true, Header: []string{"sts.pod", "sts.revision", "sts.updated", "sts.claims"}}
	var set *appsv1.StatefulSet
	for _, s := range c.StatefulSets() {
		if s.Namespace == ns && s.Name == name {
			set = s
		}
	}
	if set == nil {
		return t
	}
	type row struct {
		ord   int
		cells []string
	}
	var rows []row
	for _, p := range c.Pods() {
		if p.Namespace != ns || p.DeletionTimestamp != nil {
			continue
		}
		rest, ok := strings.CutPrefix(p.Name, name+"-")
		ord, err := strconv.Atoi(rest)
		if !ok || err != nil {
			continue
		}
		updated := "sts.no"
		if p.Labels[controller.RevisionHashLabel] == set.Status.UpdateRevision {
			updated = "sts.yes"
		}
		var claims []string
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				claims = append(claims, v.PersistentVolumeClaim.ClaimName)
			}
		}
		rows = append(rows, row{ord, []string{p.Name, p.Labels[controller.RevisionHashLabel], updated, strings.Join(claims, ", ")}})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ord < rows[j].ord })
	for _, r := range rows {
		t.Rows = append(t.Rows, r.cells)
	}
	return t
}
