//go:build oraclebuild

// Command hashcheck prints the pod-template-hash that upstream's own code
// gives every Deployment of the given manifests: the object is defaulted by
// the API server's registered defaulters, converted to the internal version
// and back (as the API server stores it), round-tripped through protobuf
// (as kube-controller-manager's informers decode it), and hashed by
// k8s.io/kubernetes/pkg/controller ComputeHash itself. With -image it does
// the same after `kubectl set image` of the first container.
//
// It is built inside the throwaway k8s.io/kubernetes module of build.sh (the
// oraclebuild tag keeps it out of the oracle module), never by the main one.
//
//	hashcheck -image nginx:1.28 FILE...
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/yaml"
)

// Hash is one line of the output (oracle/testdata/v1.X/hash.json).
type Hash struct {
	File       string `json:"file"`
	Deployment string `json:"deployment"`
	Image      string `json:"image,omitempty"` // the first container's image after set image; "" for the manifest as is
	Hash       string `json:"hash"`
}

func main() {
	image := flag.String("image", "", "also hash each Deployment after setting its first container's image to this")
	flag.Parse()
	var out []Hash
	for _, f := range flag.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		for _, doc := range bytes.Split(b, []byte("\n---")) {
			var tm struct{ Kind string }
			if yaml.Unmarshal(doc, &tm) != nil || tm.Kind != "Deployment" {
				continue
			}
			var d appsv1.Deployment
			if err := yaml.UnmarshalStrict(doc, &d); err != nil {
				fail(fmt.Errorf("%s: %v", f, err))
			}
			stored := store(&d)
			out = append(out, Hash{File: f, Deployment: d.Name, Hash: controller.ComputeHash(&stored.Spec.Template, stored.Status.CollisionCount)})
			if *image != "" && len(stored.Spec.Template.Spec.Containers) > 0 {
				upd := stored.DeepCopy()
				upd.Spec.Template.Spec.Containers[0].Image = *image
				again := store(upd)
				out = append(out, Hash{File: f, Deployment: d.Name, Image: *image, Hash: controller.ComputeHash(&again.Spec.Template, again.Status.CollisionCount)})
			}
		}
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	os.Stdout.Write(append(b, '\n'))
}

// store is what the API server keeps and the controller's informer decodes.
func store(d *appsv1.Deployment) *appsv1.Deployment {
	v1 := d.DeepCopy()
	legacyscheme.Scheme.Default(v1)
	var internal apps.Deployment
	if err := legacyscheme.Scheme.Convert(v1, &internal, nil); err != nil {
		fail(err)
	}
	var back appsv1.Deployment
	if err := legacyscheme.Scheme.Convert(&internal, &back, nil); err != nil {
		fail(err)
	}
	data, err := back.Marshal()
	if err != nil {
		fail(err)
	}
	var decoded appsv1.Deployment
	if err := decoded.Unmarshal(data); err != nil {
		fail(err)
	}
	return &decoded
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hashcheck:", err)
	os.Exit(1)
}
