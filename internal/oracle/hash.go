package oracle

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// UpstreamHash is one line of hash.json: the pod-template-hash upstream's
// own code (k8s.io/kubernetes/pkg/controller ComputeHash, over the
// template as the API server stores it and the informer decodes it) gives
// a Deployment of a manifest, as is or after `kubectl set image` of its
// first container (oracle/hashcheck).
type UpstreamHash struct {
	File       string `json:"file"`
	Deployment string `json:"deployment"`
	Image      string `json:"image,omitempty"`
	Hash       string `json:"hash"`
}

// LoadUpstreamHashes reads hash.json (the examples and scenarios, paths
// from the repository root) or hash-corpus.json (the real-manifest corpus,
// paths from the corpus) of the version the simulator models.
func LoadUpstreamHashes(root, name string) ([]UpstreamHash, error) {
	var hs []UpstreamHash
	return hs, readJSON(filepath.Join(root, Dir(), name), &hs)
}

// SimReplicaSets applies the manifest's Deployment in the simulator (and,
// with image set, then sets its first container's image) and returns the
// names of the ReplicaSets the simulated Deployment controller created.
func SimReplicaSets(root string, h UpstreamHash) ([]string, error) {
	objs, err := manifest.Load([]string{filepath.Join(root, h.File)}, nil)
	if err != nil {
		return nil, err
	}
	cfg := sim.Config{Seed: 1, Workers: 3}
	var apply []manifest.Object
	for _, o := range objs {
		switch x := o.Obj.(type) {
		case *corev1.Node:
			cfg.Nodes = append(cfg.Nodes, readyNode(x, len(cfg.Nodes)+1))
		case *appsv1.Deployment:
			if x.Name == h.Deployment {
				// the hash does not depend on the namespace, which may not
				// exist in the simulated cluster
				d := x.DeepCopy()
				d.Namespace = "default"
				o.Obj, o.Namespace = d, "default"
				apply = append(apply, o)
			}
		}
	}
	if len(apply) == 0 {
		return nil, fmt.Errorf("%s: no Deployment %s", h.File, h.Deployment)
	}
	c, err := sim.NewCluster(cfg)
	if err != nil {
		return nil, err
	}
	c.Apply(apply, []string{h.File})
	c.Settle()
	if h.Image != "" {
		d := c.Deployment("default", h.Deployment)
		if d == nil {
			return nil, fmt.Errorf("%s: Deployment %s was not created", h.File, h.Deployment)
		}
		if err := c.SetImage(d, d.Spec.Template.Spec.Containers[0].Name, h.Image); err != nil {
			return nil, err
		}
		c.Settle()
	}
	var names []string
	for _, o := range c.Objects("replicasets") {
		names = append(names, o.(*appsv1.ReplicaSet).Name)
	}
	sort.Strings(names)
	return names, nil
}
