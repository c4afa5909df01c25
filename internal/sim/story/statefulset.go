package story

import (
	"cmp"
	"sort"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// StatefulSetTable lists the set's pods at the end of the story by
// ordinal: the revision each was made from (controller-revision-hash),
// whether it is the update revision, its node, and its claims with their
// phase and volume (Bound to pvc-<uid> once provisioned, Pending without
// Config.Volumes or when the claim cannot bind).
func (c *Scene) StatefulSetTable(ns, name string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "sts.title", Left: true, Header: []string{"sts.pod", "sts.revision", "sts.updated", "sts.node", "sts.claims", "sts.volume"}}
	var set *appsv1.StatefulSet
	for _, s := range c.StatefulSets() {
		if s.Namespace == ns && s.Name == name {
			set = s
		}
	}
	if set == nil {
		return t
	}
	claims := map[string]*corev1.PersistentVolumeClaim{}
	for _, o := range c.Objects("persistentvolumeclaims") {
		pvc := o.(*corev1.PersistentVolumeClaim)
		claims[pvc.Namespace+"/"+pvc.Name] = pvc
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
		var names, volumes []string
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim == nil {
				continue
			}
			names = append(names, v.PersistentVolumeClaim.ClaimName)
			vol := "—"
			if pvc := claims[p.Namespace+"/"+v.PersistentVolumeClaim.ClaimName]; pvc != nil {
				vol = cmp.Or(string(pvc.Status.Phase), string(corev1.ClaimPending))
				if pvc.Spec.VolumeName != "" {
					vol += " " + pvc.Spec.VolumeName
				}
			}
			volumes = append(volumes, vol)
		}
		rows = append(rows, row{ord, []string{p.Name, p.Labels[controller.RevisionHashLabel], updated, cmp.Or(p.Spec.NodeName, "—"),
			strings.Join(names, ", "), strings.Join(volumes, ", ")}})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ord < rows[j].ord })
	for _, r := range rows {
		t.Rows = append(t.Rows, r.cells)
	}
	return t
}
