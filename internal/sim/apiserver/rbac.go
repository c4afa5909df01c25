package apiserver

import (
	"slices"
	"strings"
)

// RBAC is the bootstrap authorization the simulated cluster starts with:
// the Node authorizer for kubelets, then ClusterRoleBindings to the
// ClusterRoles kube-apiserver creates at start-up (upstream
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/{policy,controller_policy}.go)
// plus kubeadm's bindings. Rules are trimmed to what the simulator's
// components do; the shape (apiGroups × resources × verbs) is the real one.
type RBAC struct {
	roles    map[string][]rule
	bindings []binding
}

type rule struct {
	groups, resources, verbs []string
}

type binding struct {
	name, role    string
	users, groups []string
	by            string // what authorize says allowed a request, built once
}

func r(groups, resources, verbs string) rule {
	return rule{strings.Split(groups, ","), strings.Split(resources, ","), strings.Split(verbs, ",")}
}

const events = "create,patch,update"

// bootstrapRoles are the ClusterRoles the components are bound to, with
// the rules of upstream's bootstrap policy the simulation exercises.
func bootstrapRoles() map[string][]rule {
	ev := []rule{r(",events.k8s.io", "events", events)}
	return map[string][]rule{
		"cluster-admin": {r("*", "*", "*")},
		"system:controller:deployment-controller": append([]rule{
			r("apps", "deployments", "get,list,watch,update"),
			r("apps", "deployments/status", "update"),
			r("apps", "replicasets", "create,delete,get,list,patch,update,watch"),
			r("", "pods", "get,list,update,watch"),
		}, ev...),
		"system:controller:replicaset-controller": append([]rule{
			r("apps", "replicasets", "get,list,update,watch"),
			r("apps", "replicasets/status", "update"),
			r("", "pods", "create,delete,list,patch,watch"),
		}, ev...),
		"system:controller:endpointslice-controller": append([]rule{
			r("", "services,pods,nodes", "get,list,watch"),
			r("discovery.k8s.io", "endpointslices", "create,delete,get,list,update"),
		}, ev...),
		"system:kube-scheduler": append([]rule{
			r("", "pods", "delete,get,list,watch"),
			r("", "pods/binding", "create"),
			r("", "pods/status", "patch,update"),
			r("", "nodes", "get,list,watch"),
		}, ev...),
		"system:node-proxier": append([]rule{
			r("", "services,endpoints,nodes", "list,watch"),
			r("discovery.k8s.io", "endpointslices", "list,watch"),
		}, ev...),
		"system:controller:node-controller": append([]rule{
			r("", "nodes", "delete,get,list,patch,update"),
			r("", "nodes/status", "patch,update"),
			r("", "pods", "delete,list,watch"),
			r("", "pods/status", "update"),
			r("coordination.k8s.io", "leases", "list,watch"),
		}, ev...),
		// Split out of the node lifecycle controller in v1.29
		// (controller_policy.go: taint-eviction-controller).
		"system:controller:taint-eviction-controller": append([]rule{
			r("", "pods", "delete,get,list,watch"),
			r("", "pods/status", "patch"),
		}, ev...),
		// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go
		"system:controller:resourcequota-controller": append([]rule{
			r("*", "*", "list,watch"),
			r("", "resourcequotas/status", "update"),
		}, ev...),
		// controller_policy.go: service-account-controller,
		// root-ca-cert-publisher
		"system:controller:service-account-controller": append([]rule{
			r("", "serviceaccounts", "create"),
		}, ev...),
		// controller_policy.go: disruption-controller (it reads the
		// workloads' scale and writes the budgets' status).
		"system:controller:disruption-controller": append([]rule{
			r("apps", "deployments,replicasets,statefulsets", "get,list,watch"),
			r("", "replicationcontrollers", "get,list,watch"),
			r("policy", "poddisruptionbudgets", "get,list,watch"),
			r("*", "*/scale", "get"),
			r("policy", "poddisruptionbudgets/status", "update"),
		}, ev...),
		"system:controller:root-ca-cert-publisher": append([]rule{
			r("", "configmaps", "create,update"),
		}, ev...),
		// controller_policy.go: horizontal-pod-autoscaler ("*/scale"
		// written out for the kinds the simulator scales).
		"system:controller:horizontal-pod-autoscaler": append([]rule{
			r("autoscaling", "horizontalpodautoscalers", "get,list,watch"),
			r("autoscaling", "horizontalpodautoscalers/status", "update"),
			r("*", "deployments/scale,replicasets/scale,statefulsets/scale", "get,update"),
			r("", "pods", "list"),
			r("metrics.k8s.io", "pods", "list"),
		}, ev...),
		// controller_policy.go: statefulset-controller.
		"system:controller:statefulset-controller": append([]rule{
			r("", "pods", "create,delete,get,list,patch,update,watch"),
			r("apps", "statefulsets", "list,watch"),
			r("apps", "statefulsets/status", "update"),
			r("apps", "statefulsets/finalizers", "update"),
			r("apps", "controllerrevisions", "create,delete,get,list,patch,update,watch"),
			r("", "persistentvolumeclaims", "create,delete,get,update"),
		}, ev...),
		// controller_policy.go: persistent-volume-binder (trimmed), and
		// the external provisioner's own ClusterRole
		// (kubernetes-csi/external-provisioner deploy/kubernetes/rbac.yaml).
		"system:controller:persistent-volume-binder": append([]rule{
			r("", "persistentvolumes", "create,delete,get,list,update,watch"),
			r("", "persistentvolumes/status", "update"),
			r("", "persistentvolumeclaims", "get,list,update,watch"),
			r("", "persistentvolumeclaims/status", "update"),
			r("", "pods", "get,list,watch"),
			r("storage.k8s.io", "storageclasses", "get,list,watch"),
		}, ev...),
		// bootstrappolicy/policy.go: system:volume-scheduler, bound to
		// kube-scheduler for its VolumeBinding plugin.
		"system:volume-scheduler": {
			r("", "persistentvolumes", "get,list,patch,update,watch"),
			r("storage.k8s.io", "storageclasses", "get,list,watch"),
			r("", "persistentvolumeclaims", "get,list,patch,update,watch"),
		},
		// rancher/local-path-provisioner deploy/local-path-storage.yaml:
		// ClusterRole local-path-provisioner-role.
		"local-path-provisioner-role": {
			r("", "nodes,persistentvolumeclaims,configmaps,pods,pods/log", "get,list,watch"),
			r("", "persistentvolumes", "get,list,watch,create,patch,update,delete"),
			r("", "events", "create,patch"),
			r("storage.k8s.io", "storageclasses", "get,list,watch"),
		},
		// metrics-server's ClusterRole system:metrics-server
		// (kubernetes-sigs/metrics-server manifests/base/rbac.yaml).
		"system:metrics-server": {
			r("", "nodes/metrics", "get"),
			r("", "pods,nodes", "get,list,watch"),
		},
		"system:coredns": {
			r("", "endpoints,services,pods,namespaces", "list,watch"),
			r("discovery.k8s.io", "endpointslices", "list,watch"),
		},
	}
}

func bootstrapRBAC() *RBAC {
	sa := func(name string) string { return "system:serviceaccount:kube-system:" + name }
	a := &RBAC{roles: bootstrapRoles(), bindings: []binding{
		{name: "kubeadm:cluster-admins", role: "cluster-admin", groups: []string{"kubeadm:cluster-admins"}},
		{name: "system:controller:deployment-controller", role: "system:controller:deployment-controller", users: []string{sa("deployment-controller")}},
		{name: "system:controller:replicaset-controller", role: "system:controller:replicaset-controller", users: []string{sa("replicaset-controller")}},
		{name: "system:controller:endpointslice-controller", role: "system:controller:endpointslice-controller", users: []string{sa("endpointslice-controller")}},
		{name: "system:kube-scheduler", role: "system:kube-scheduler", users: []string{"system:kube-scheduler"}},
		{name: "kubeadm:node-proxier", role: "system:node-proxier", users: []string{sa("kube-proxy")}},
		{name: "system:coredns", role: "system:coredns", users: []string{sa("coredns")}},
		{name: "system:controller:taint-eviction-controller", role: "system:controller:taint-eviction-controller", users: []string{sa("taint-eviction-controller")}},
		{name: "system:controller:resourcequota-controller", role: "system:controller:resourcequota-controller", users: []string{sa("resourcequota-controller")}},
		{name: "system:controller:service-account-controller", role: "system:controller:service-account-controller", users: []string{sa("service-account-controller")}},
		{name: "system:controller:root-ca-cert-publisher", role: "system:controller:root-ca-cert-publisher", users: []string{sa("root-ca-cert-publisher")}},
		{name: "system:controller:disruption-controller", role: "system:controller:disruption-controller", users: []string{sa("disruption-controller")}},
		{name: "system:controller:horizontal-pod-autoscaler", role: "system:controller:horizontal-pod-autoscaler", users: []string{sa("horizontal-pod-autoscaler")}},
		{name: "system:controller:statefulset-controller", role: "system:controller:statefulset-controller", users: []string{sa("statefulset-controller")}},
		{name: "system:controller:persistent-volume-binder", role: "system:controller:persistent-volume-binder", users: []string{sa("persistent-volume-binder")}},
		{name: "system:volume-scheduler", role: "system:volume-scheduler", users: []string{"system:kube-scheduler"}},
		{name: "local-path-provisioner-bind", role: "local-path-provisioner-role", users: []string{"system:serviceaccount:local-path-storage:local-path-provisioner-service-account"}},
		{name: "system:metrics-server", role: "system:metrics-server", users: []string{sa("metrics-server")}},
		{name: "system:controller:node-controller", role: "system:controller:node-controller", users: []string{sa("node-controller")}},
	}}
	for i := range a.bindings {
		b := &a.bindings[i]
		b.by = "RBAC: ClusterRoleBinding " + b.name + " → ClusterRole " + b.role
	}
	return a
}

// authorize answers whether id may do verb on resource, and what allowed it.
func (a *RBAC) authorize(id Identity, verb, group, resource string) (bool, string) {
	// The Node authorizer (--authorization-mode=Node,RBAC) lets a kubelet
	// read and update the pods bound to its node and their status.
	if strings.HasPrefix(id.User, "system:node:") && slices.Contains(id.Groups, "system:nodes") {
		switch resource {
		case "pods", "pods/status", "nodes", "nodes/status", "events", "leases":
			return true, "Node authorizer"
		}
	}
	for _, b := range a.bindings {
		if !slices.Contains(b.users, id.User) && !containsAny(b.groups, id.Groups) {
			continue
		}
		for _, ru := range a.roles[b.role] {
			if matches(ru.groups, group) && matches(ru.resources, resource) && matches(ru.verbs, verb) {
				return true, b.by
			}
		}
	}
	return false, ""
}

func matches(list []string, v string) bool {
	return slices.Contains(list, "*") || slices.Contains(list, v)
}

func containsAny(list, vs []string) bool {
	return slices.ContainsFunc(vs, func(v string) bool { return slices.Contains(list, v) })
}
