//go:build oraclebuild

// Command hashcheck prints the pod-template-hash that upstream's own code
// gives every Deployment of the given manifests: the object is defaulted by
// the API server's registered defaulters, converted to the internal version
// and back (as the API server stores it), round-tripped through protobuf
// (as kube-controller-manager's informers decode it), and hashed by
// k8s.io/kubernetes/pkg/controller ComputeHash itself. With -image it does
// the same after `kubectl set image` of the first container.
//
// With -defaults it prints instead every object of each file as upstream's
// registered defaulters leave it (what the API server's decoding does before
// admission), or the error of decoding it.
//
// It is built inside the throwaway k8s.io/kubernetes module of build.sh (the
// oraclebuild tag keeps it out of the oracle module), never by the main one.
//
//	hashcheck -image nginx:1.28 FILE...
//	hashcheck -defaults FILE...
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
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
	defaults := flag.Bool("defaults", false, "print each object as upstream's defaulters leave it")
	flag.Parse()
	if *defaults {
		printDefaults(flag.Args())
		return
	}
	var out []Hash
	for _, f := range flag.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		for _, doc := range docs(b) {
			var tm struct{ Kind string }
			if yaml.Unmarshal(doc, &tm) != nil || tm.Kind != "Deployment" {
				continue
			}
			var d appsv1.Deployment
			if err := yaml.UnmarshalStrict(doc, &d); err != nil {
				fail(fmt.Errorf("%s: %v", f, err))
			}
			if d.Spec.Selector == nil {
				// the API server rejects it (spec.selector: Required value):
				// no controller ever hashes it (kustomize bases, patches)
				continue
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

// Defaulted is one file of -defaults: its objects as upstream defaults
// them, and the errors of the documents that do not decode.
type Defaulted struct {
	File    string   `json:"file"`
	Objects []any    `json:"objects"`
	Errors  []string `json:"errors"`
}

func printDefaults(files []string) {
	dec := legacyscheme.Codecs.UniversalDeserializer()
	var out []Defaulted
	for _, f := range files {
		d := Defaulted{File: f, Objects: []any{}, Errors: []string{}}
		b, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		for _, doc := range docs(b) {
			var tm struct{ Kind, APIVersion string }
			if yaml.Unmarshal(doc, &tm) != nil || tm.Kind == "" {
				continue
			}
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				d.Errors = append(d.Errors, err.Error())
				continue
			}
			objs, err := decodeAll(dec, js)
			if err != nil {
				d.Errors = append(d.Errors, fmt.Sprintf("%s %s: %v", tm.APIVersion, tm.Kind, err))
				continue
			}
			for _, obj := range objs {
				if err := stored(obj); err != nil {
					d.Errors = append(d.Errors, fmt.Sprintf("%s %s: %v", tm.APIVersion, tm.Kind, err))
					continue
				}
				var m any
				jb, _ := json.Marshal(obj)
				json.Unmarshal(jb, &m)
				d.Objects = append(d.Objects, m)
			}
		}
		out = append(out, d)
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	os.Stdout.Write(append(b, '\n'))
}

// stored defaults obj in place and round-trips it through the internal
// version, as the API server does before it stores an object.
func stored(obj runtime.Object) error {
	legacyscheme.Scheme.Default(obj)
	internal, err := legacyscheme.Scheme.ConvertToVersion(obj, runtime.InternalGroupVersioner)
	if err != nil {
		return err
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	back, err := legacyscheme.Scheme.ConvertToVersion(internal, gvk.GroupVersion())
	if err != nil {
		return err
	}
	jb, err := json.Marshal(back)
	if err != nil {
		return err
	}
	return json.Unmarshal(jb, obj)
}

// docs splits a YAML stream at its "---" lines, keeping each document's
// last newline (a block scalar's value ends with it).
func docs(b []byte) [][]byte {
	var out [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---.*$`).Split(string(b), -1) {
		out = append(out, []byte(d))
	}
	return out
}

// decodeAll decodes one document; a kind: List gives its items (nested
// lists too), as kubectl sends them one by one.
func decodeAll(dec runtime.Decoder, js []byte) ([]runtime.Object, error) {
	obj, _, err := dec.Decode(js, nil, nil)
	if err != nil {
		return nil, err
	}
	list, ok := obj.(*corev1.List)
	if !ok {
		return []runtime.Object{obj}, nil
	}
	var out []runtime.Object
	for _, it := range list.Items {
		objs, err := decodeAll(dec, it.Raw)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}
