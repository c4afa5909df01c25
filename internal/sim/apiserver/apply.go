package apiserver

// Field management and server-side apply, for Deployments, on only when a
// story asks for it (EnableFieldManagement): every other scenario stores
// objects without metadata.managedFields, as before.
//
// The merging, the ownership and the conflict message are apimachinery's
// own (pkg/util/managedfields NewDefaultFieldManager over
// sigs.k8s.io/structured-merge-diff/v6, typed by the
// built-in schema of a Deployment, deploymentschema.yaml; k8s.io/apimachinery
// and k8s.io/client-go v0.37.2).
// The simulator only routes requests to it as the
// API server's handlers do (staging/src/k8s.io/apiserver/pkg/endpoints/
// handlers/patch.go applyPatcher, create.go and update.go
// UpdateNoErrors; v1.37.2) and sets entry times from the virtual clock.

import (
	_ "embed"
	"fmt"
	"net/http"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdtyped "sigs.k8s.io/structured-merge-diff/v6/typed"
)

// ApplyContentType is the body type of a server-side apply PATCH (kubectl
// apply --server-side; apimachinery types.ApplyYAMLPatchType).
const ApplyContentType = "application/apply-patch+yaml"

// fieldManagement holds one FieldManager per subresource of a Deployment,
// as the API server builds one per endpoint (the main resource, status,
// scale).
type fieldManagement struct {
	byPath map[string]*managedfields.FieldManager
}

// deploymentSchema is deploymentschema.yaml (gen_deploymentschema.go).
//
//go:generate go run gen_deploymentschema.go
//go:embed deploymentschema.yaml
var deploymentSchema string

var deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")

type defaulter func(runtime.Object) []string

func (d defaulter) Default(o runtime.Object) { d(o) }

// EnableFieldManagement turns on metadata.managedFields for Deployments:
// every write records its manager, and server-side apply (Client.Apply)
// is served. The built-in schema is parsed here, not at start-up.
func (s *Server) EnableFieldManagement() error {
	scheme := runtime.NewScheme()
	if err := appsv1.AddToScheme(scheme); err != nil {
		return err
	}
	// The built-in schema of a Deployment and the types it reaches
	// (deploymentschema.yaml, cut out of the one client-go carries by
	// gen_deploymentschema.go): lists such as containers are keyed by name
	// as the API server keys them. Parsed here, when a command turns field
	// management on, not at start-up; client-go's own converter
	// (applyconfigurations.NewTypeConverter) is not imported because it
	// links kubernetes/scheme, whose init made every command about 20 ms
	// slower.
	parser, err := smdtyped.NewParser(smdtyped.YAMLObject(deploymentSchema))
	if err != nil {
		return err
	}
	tc := managedfields.NewSchemeTypeConverter(scheme, parser)
	def := defaulter(func(o runtime.Object) []string {
		if s.Default != nil {
			return s.Default(o)
		}
		return nil
	})
	fm := &fieldManagement{byPath: map[string]*managedfields.FieldManager{}}
	// The fields each endpoint resets, so an applier cannot own them
	// (pkg/registry/apps/deployment/strategy.go GetResetFields: the main
	// resource resets status; /status resets spec and metadata.labels).
	reset := map[string]*fieldpath.Set{
		"":       fieldpath.NewSet(fieldpath.MakePathOrDie("status")),
		"status": fieldpath.NewSet(fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("metadata", "labels")),
		"scale":  fieldpath.NewSet(),
	}
	for _, sub := range []string{"", "status", "scale"} {
		m, err := managedfields.NewDefaultFieldManager(tc, scheme, def, scheme, deploymentGVK, appsv1.SchemeGroupVersion, sub,
			map[fieldpath.APIVersion]fieldpath.Filter{"apps/v1": fieldpath.NewExcludeSetFilter(reset[sub])})
		if err != nil {
			return err
		}
		fm.byPath[sub] = m
	}
	s.fields = fm
	return nil
}

// FieldManagerOf is the manager name the API server records for a client
// that names none: the User-Agent up to its first "/" (handlers
// rest.go managerOrUserAgent, prefixFromUserAgent). client-go's default
// User-Agent starts with the binary's name (rest.DefaultKubernetesUserAgent).
func FieldManagerOf(c *Client) string {
	u := c.ID.User
	switch {
	case u == "kubernetes-admin":
		return "kubectl"
	case u == "system:kube-scheduler":
		return "kube-scheduler"
	case strings.HasPrefix(u, "system:node:"):
		return "kubelet"
	}
	return "kube-controller-manager"
}

// track records a write other than an apply as an Update by its manager
// (managedFields operation Update), when field management is on and obj
// is a Deployment.
func (s *Server) track(c *Client, r *request, prev *stored, obj runtime.Object) runtime.Object {
	if s.fields == nil || r.applied() != nil {
		return obj
	}
	if _, ok := obj.(*appsv1.Deployment); !ok {
		return obj
	}
	m := s.fields.byPath[r.subresource]
	if m == nil {
		return obj
	}
	var live runtime.Object = &appsv1.Deployment{}
	if prev != nil {
		live = prev.obj
	}
	manager := r.manager()
	if manager == "" {
		manager = FieldManagerOf(c)
	}
	before := Meta(live).GetManagedFields()
	out := m.UpdateNoErrors(typed(live), typed(obj), manager)
	s.stampManagedFields(before, out)
	return out
}

// typed is obj with its apiVersion and kind set, as a decoded request body
// has them; the field manager types an object by them.
func typed(obj runtime.Object) runtime.Object {
	if !obj.GetObjectKind().GroupVersionKind().Empty() {
		return obj
	}
	d := *obj.(*appsv1.Deployment)
	d.SetGroupVersionKind(deploymentGVK)
	return &d
}

// stampManagedFields gives the entries this write touched the virtual
// time (the field manager stamps the wall clock, managedfieldsupdater.go)
// and sorts them as EncodeObjectManagedFields does: Apply before Update,
// then by time, manager, apiVersion and subresource.
func (s *Server) stampManagedFields(before []metav1.ManagedFieldsEntry, obj runtime.Object) {
	m := Meta(obj)
	entries := m.GetManagedFields()
	now := TimeAt(s.eng.Now())
	for i := range entries {
		e := &entries[i]
		kept := false
		for _, b := range before {
			if b.Manager == e.Manager && b.Operation == e.Operation && b.Subresource == e.Subresource && b.Time != nil && e.Time != nil && b.Time.Equal(e.Time) {
				kept = true
			}
		}
		if !kept {
			e.Time = &now
		}
	}
	sort.SliceStable(entries, func(i, j int) bool {
		p, q := entries[i], entries[j]
		if p.Operation != q.Operation {
			return p.Operation < q.Operation
		}
		if ps, qs := p.Time.Unix(), q.Time.Unix(); ps != qs {
			return ps < qs
		}
		if p.Manager != q.Manager {
			return p.Manager < q.Manager
		}
		if p.APIVersion != q.APIVersion {
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
	m.SetManagedFields(entries)
}

// Apply sends kubectl apply --server-side's request: PATCH with the
// manifest as an application/apply-patch+yaml body, ?fieldManager and
// ?force (k8s.io/kubectl pkg/cmd/apply/apply.go applyOneObject). The API
// server creates the object when it does not exist.
func (k Calls) Apply(obj runtime.Object, body []byte, manager string, force bool) (runtime.Object, *Status) {
	m := Meta(obj)
	return k.do(request{verb: "patch", res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName(),
		rare: &rareArgs{manager: manager, body: body, force: force}})
}

// PatchAs is Calls.Patch with ?fieldManager=manager (kubectl's client-side
// apply and kubectl label name theirs).
func (k Calls) PatchAs(res Resource, ns, name, body, manager string, apply func(runtime.Object)) (runtime.Object, *Status) {
	return k.do(request{verb: "patch", res: res, ns: ns, name: name, body: body, apply: apply, rare: &rareArgs{manager: manager}})
}

// CreateAs is Calls.Create with ?fieldManager=manager.
func (k Calls) CreateAs(obj runtime.Object, manager string) (runtime.Object, *Status) {
	m := Meta(obj)
	return k.do(request{verb: "create", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName(), rare: &rareArgs{manager: manager}})
}

// serverSideApply serves an apply PATCH: the field manager merges the
// applied configuration into the stored object (or an empty one: apply
// creates) and answers 409 Conflict when it would take a field another
// manager owns with a different value, unless force.
func (k *call) serverSideApply() {
	s, c, r := k.c.s, k.c, &k.req
	if s.fields == nil || r.res.Kind != "Deployment" {
		k.fail(&Status{Code: http.StatusUnsupportedMediaType, Reason: "UnsupportedMediaType", Message: "the simulator serves server-side apply only for Deployments, in trace apply-modes"})
		return
	}
	applied := &unstructured.Unstructured{}
	if err := applied.UnmarshalJSON(r.applied()); err != nil {
		k.fail(&Status{Code: http.StatusBadRequest, Reason: "BadRequest", Message: err.Error()})
		return
	}
	k.apiStep("apiserver.apply", "type", ApplyContentType, "manager", r.manager(), "force", r.rare.force, "path", r.path())
	key := Key(r.res, r.ns, r.name)
	if s.data[key] == nil {
		obj, err := s.applyTo(&appsv1.Deployment{}, applied, r)
		if err != nil {
			k.fail(err)
			return
		}
		r.verb, r.obj = "create", obj
		k.write()
		return
	}
	s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
		if cur == nil {
			return nil, notFound(*r)
		}
		obj, err := s.applyTo(cur.obj, applied, r)
		if err != nil {
			if err.Reason == "Conflict" {
				k.step(c.Phase, "apiserver.reject", "status", err.StatusLine(), "message", err.Message)
			}
			return nil, err
		}
		return mergeUpdate(cur.obj, obj, false), nil
	}, k.done, k.step)
}

// applyTo runs the field manager's Apply of applied onto live.
func (s *Server) applyTo(live runtime.Object, applied *unstructured.Unstructured, r *request) (runtime.Object, *Status) {
	before := Meta(live).GetManagedFields()
	out, err := s.fields.byPath[""].Apply(typed(live), applied, r.manager(), r.rare.force)
	if err != nil {
		return nil, AsStatus(err)
	}
	d, ok := out.(*appsv1.Deployment)
	if !ok {
		return nil, &Status{Code: http.StatusInternalServerError, Reason: "InternalError", Message: fmt.Sprintf("apply returned %T", out)}
	}
	s.stampManagedFields(before, d)
	return d, nil
}

// ReplicasOwners lists the managedFields entries that own .spec.replicas,
// each as "manager (Operation[, subresource])", and every entry's manager
// the same way.
func ReplicasOwners(obj runtime.Object) (owners, all []string) {
	replicas := fieldpath.MakePathOrDie("spec", "replicas")
	for _, e := range Meta(obj).GetManagedFields() {
		name := e.Manager + " (" + string(e.Operation)
		if e.Subresource != "" {
			name += ", " + e.Subresource
		}
		name += ")"
		all = append(all, name)
		set := &fieldpath.Set{}
		if e.FieldsV1 != nil && set.FromJSON(strings.NewReader(string(e.FieldsV1.Raw))) == nil && set.Has(replicas) {
			owners = append(owners, name)
		}
	}
	return owners, all
}

// PatchScale is Client.PatchScale, blocking.
func (k Calls) PatchScale(res Resource, ns, name string, replicas int32) (runtime.Object, *Status) {
	return k.do(request{verb: "patch", subresource: "scale", res: res, ns: ns, name: name,
		body: fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas), apply: func(o runtime.Object) { setScaleReplicas(o, replicas) }})
}
