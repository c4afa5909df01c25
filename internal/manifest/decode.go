package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsjson "sigs.k8s.io/json"
)

// ident names the object being decoded in error messages.
type ident struct {
	apiVersion, kind, name, namespace, file string
	line                                    int
}

func (id ident) String() string {
	if id.name == "" {
		return id.kind
	}
	return id.kind + " " + strconv.Quote(id.name)
}

// fromJSON takes apiVersion, kind, name and namespace from the object's
// JSON when they are strings there; otherwise the values read from the
// YAML nodes stay.
func (id *ident) fromJSON(data []byte) {
	var head struct {
		APIVersion *string `json:"apiVersion"`
		Kind       *string `json:"kind"`
		Metadata   struct {
			Name      *string `json:"name"`
			Namespace *string `json:"namespace"`
		} `json:"metadata"`
	}
	if sigsjson.UnmarshalCaseSensitivePreserveInts(data, &head) != nil {
		return
	}
	for _, f := range []struct {
		dst *string
		src *string
	}{{&id.apiVersion, head.APIVersion}, {&id.kind, head.Kind}, {&id.name, head.Metadata.Name}, {&id.namespace, head.Metadata.Namespace}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
}

// decode turns one object's JSON into a typed k8s.io/api object (strictly)
// or, for kinds outside the built-in groups, an Unstructured object.
func decode(id ident, doc *jsonDoc) (Object, error) {
	data := doc.buf.Bytes()
	// apimachinery runtime/error.go: the serializer checks Kind before
	// apiVersion, and prints the object it could not place.
	if id.kind == "" {
		return Object{}, errAt(id.line, "Object 'Kind' is missing in '%s'", shorten(string(data), 200))
	}
	if id.apiVersion == "" {
		return Object{}, errAt(id.line, "Object 'apiVersion' is missing in '%s'", shorten(string(data), 200))
	}
	gv, err := schema.ParseGroupVersion(id.apiVersion)
	if err != nil {
		return Object{}, errAt(id.line, "%v", err)
	}
	gvk := gv.WithKind(id.kind)
	out := Object{APIVersion: id.apiVersion, Kind: id.kind, Name: id.name, Namespace: id.namespace}
	obj, typed := scheme.New(gvk)
	switch {
	case typed:
		strictErrs, err := sigsjson.UnmarshalStrict(data, obj)
		if err != nil {
			return Object{}, typeError(id, doc, err)
		}
		if len(strictErrs) > 0 {
			return Object{}, strictError(id, doc, strictErrs)
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		out.Obj = obj
	case servedUntyped[gvk] || !builtinGroups[gv.Group]:
		if gv.Group == "kustomize.config.k8s.io" {
			return Object{}, errAt(id.line, "%s: a kustomization is not an object to apply; build it with kubectl kustomize (or kubectl apply -k DIR)", noMatch(id))
		}
		u, err := decodeUnstructured(id, doc)
		if err != nil {
			return Object{}, err
		}
		out.Obj = u
	default:
		return Object{}, errAt(id.line, "%s%s", noMatch(id), replacement(gvk))
	}
	return out, nil
}

// noMatch is kubectl's message when discovery has no such kind
// (cli-runtime resource mapping + apimachinery meta.NoKindMatchError).
func noMatch(id ident) string {
	return NoMatch(id.name, id.namespace, id.file, id.kind, id.apiVersion)
}

// NoMatch is kubectl's message for an object whose kind the cluster does
// not serve (k8s.io/cli-runtime pkg/resource/mapper.go infoForData, v1.37:
// "resource mapping not found for name: %q namespace: %q from %q: %w").
func NoMatch(name, namespace, file, kind, apiVersion string) string {
	return fmt.Sprintf("resource mapping not found for name: %q namespace: %q from %q: no matches for kind %q in version %q",
		name, namespace, file, kind, apiVersion)
}

// CRDHint is the line cli-runtime's mapper adds after NoMatch for a kind no
// CRD serves; kubectl prints it on a line of its own.
const CRDHint = "ensure CRDs are installed first"

// Custom reports whether gvk is a custom resource: a kind of a group the
// API server itself does not serve, so only a CRD installed beforehand can
// make it known (a KubeSchedulerConfiguration or another component's
// config file is one too: no server serves it).
func Custom(gvk schema.GroupVersionKind) bool {
	return !builtinGroups[gvk.Group] && !servedUntyped[gvk]
}

// replacement suggests the served version of a kind whose version was
// removed (policy/v1beta1 -> policy/v1, extensions/v1beta1 -> apps/v1).
func replacement(gvk schema.GroupVersionKind) string {
	var same, other []string
	for _, known := range scheme.AllKnownTypes() {
		if known.Kind != gvk.Kind || known.Version == "__internal" {
			continue
		}
		if known.Group == gvk.Group {
			same = append(same, known.GroupVersion().String())
		} else {
			other = append(other, known.GroupVersion().String())
		}
	}
	sort.Strings(same)
	sort.Strings(other)
	switch {
	case len(same) > 0:
		return " (this version is not served; use " + same[0] + ")"
	case len(other) > 0:
		return " (this version is not served; use " + other[0] + ")"
	}
	return ""
}

func strictError(id ident, doc *jsonDoc, errs []error) error {
	first := errs[0]
	path := ""
	if fe, ok := first.(sigsjson.FieldError); ok {
		path = fe.FieldPath()
	}
	msg := fmt.Sprintf("%s in %s", first.Error(), id)
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(errs)-1)
	}
	return errAt(doc.lineOf(path, id.line), "%s", msg)
}

// typeError places a fatal decoding error: a value of the wrong type
// (replicas: "three") or one a field's own decoder rejects (a quantity).
func typeError(id ident, doc *jsonDoc, err error) error {
	msg := strings.TrimPrefix(err.Error(), "json: ")
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if f, ok := doc.typeErrorField(te); ok {
			return errAt(f.line, "wrong type for %q in %s: %s", f.path, id, msg)
		}
	}
	if f, ok := badQuantity(doc); ok {
		return errAt(f.line, "invalid value for %q in %s: %s", f.path, id, msg)
	}
	return errAt(id.line, "%s: %s", id, msg)
}

// typeErrorField finds the value a type error is about. The offset is
// right when the outer decoder failed; when a field's own UnmarshalJSON
// failed (IntOrString given a list), it is relative to that field's value,
// so the field path (without list indices) must agree, or the first value
// at that path of the reported JSON type is taken.
func (d *jsonDoc) typeErrorField(te *json.UnmarshalTypeError) (fieldAt, bool) {
	if te.Field == "" {
		return fieldAt{}, false
	}
	if f, ok := d.fieldBefore(int(te.Offset)); ok && withoutIndexes(f.path) == te.Field {
		return f, true
	}
	data := d.buf.Bytes()
	for _, f := range d.fields {
		if withoutIndexes(f.path) == te.Field && f.off < len(data) && strings.HasPrefix(te.Value, jsonKind(data[f.off])) {
			return f, true
		}
	}
	return fieldAt{}, false
}

func withoutIndexes(path string) string {
	var b strings.Builder
	depth := 0
	for _, r := range path {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// jsonKind names a JSON value by its first byte, as UnmarshalTypeError does.
func jsonKind(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// badQuantity finds the first resource quantity in doc that does not
// parse: resource.Quantity's own decoder reports no position.
func badQuantity(doc *jsonDoc) (fieldAt, bool) {
	data := doc.buf.Bytes()
	for _, f := range doc.fields {
		if !quantityPath(f.path) || f.off >= len(data) {
			continue
		}
		var v any
		if err := json.NewDecoder(bytes.NewReader(data[f.off:])).Decode(&v); err != nil {
			continue
		}
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case float64:
			continue // numbers are valid quantities
		default:
			s = fmt.Sprint(x)
		}
		if _, err := resource.ParseQuantity(s); err != nil {
			return f, true
		}
	}
	return fieldAt{}, false
}

// quantityPath reports whether path is a value in a resource list.
func quantityPath(path string) bool {
	for _, part := range []string{"requests.", "limits.", "hard.", "capacity.", "allocatable.", "overhead.", "storage", "sizeLimit"} {
		if strings.Contains(path, part) {
			return true
		}
	}
	return false
}

// decodeUnstructured keeps a custom resource as generic data; only its
// metadata has a schema the loader knows, and that one is checked strictly.
func decodeUnstructured(id ident, doc *jsonDoc) (*unstructured.Unstructured, error) {
	var m map[string]any
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(doc.buf.Bytes(), &m); err != nil {
		return nil, errAt(id.line, "%s: %v", id, err)
	}
	if md, ok := m["metadata"]; ok && md != nil {
		raw, err := json.Marshal(md)
		if err != nil {
			return nil, errAt(id.line, "%s: %v", id, err)
		}
		var meta metav1.ObjectMeta
		strictErrs, err := sigsjson.UnmarshalStrict(raw, &meta)
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "json: ")
			return nil, errAt(doc.lineOf("metadata", id.line), "wrong type in metadata of %s: %s", id, msg)
		}
		if len(strictErrs) > 0 {
			path := "metadata"
			if fe, ok := strictErrs[0].(sigsjson.FieldError); ok {
				path = "metadata." + fe.FieldPath()
				fe.SetFieldPath(path)
			}
			return nil, errAt(doc.lineOf(path, id.line), "%v in %s", strictErrs[0], id)
		}
	}
	return &unstructured.Unstructured{Object: m}, nil
}
