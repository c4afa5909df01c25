package apiserver

import (
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

func TestKeysAndPaths(t *testing.T) {
	dep := ResourceOf(&appsv1.Deployment{})
	svc := ResourceOf(&corev1.Service{})
	node := ResourceOf(&corev1.Node{})
	for _, tc := range []struct{ got, want string }{
		{Key(dep, "default", "web"), "/registry/deployments/default/web"},
		{Key(svc, "default", "web"), "/registry/services/specs/default/web"},
		{Key(node, "", "node-a"), "/registry/minions/node-a"},
		{Path(dep, "default", ""), "/apis/apps/v1/namespaces/default/deployments"},
		{Path(svc, "ns", "web"), "/api/v1/namespaces/ns/services/web"},
		{Plural("NetworkPolicy"), "networkpolicies"},
		{Plural("Ingress"), "ingresses"},
		{dep.GroupKind(), "Deployment.apps"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestRBAC(t *testing.T) {
	a := bootstrapRBAC()
	sched := Identity{User: "system:kube-scheduler", Groups: []string{"system:authenticated"}}
	if ok, by := a.authorize(sched, "create", "", "pods/binding"); !ok || by != "RBAC: ClusterRoleBinding system:kube-scheduler → ClusterRole system:kube-scheduler" {
		t.Fatalf("scheduler bind: %v %q", ok, by)
	}
	if ok, _ := a.authorize(sched, "create", "apps", "deployments"); ok {
		t.Fatal("the scheduler must not create deployments")
	}
	kubelet := Identity{User: "system:node:node-a", Groups: []string{"system:nodes"}}
	if ok, by := a.authorize(kubelet, "update", "", "pods/status"); !ok || by != "Node authorizer" {
		t.Fatalf("kubelet status: %v %q", ok, by)
	}
	if ok, _ := a.authorize(kubelet, "create", "apps", "deployments"); ok {
		t.Fatal("a kubelet must not create deployments")
	}
	st := forbidden("system:kube-scheduler", "create", ResourceOf(&appsv1.Deployment{}), "deployments", "default", "web")
	want := `deployments.apps "web" is forbidden: User "system:kube-scheduler" cannot create resource "deployments" in API group "apps" in the namespace "default"`
	if st.Code != 403 || st.Message != want {
		t.Fatalf("forbidden: %d %q", st.Code, st.Message)
	}
}

func TestIPAllocator(t *testing.T) {
	a, err := newIPAllocator("10.96.0.0/12")
	if err != nil || a.ip(1) != "10.96.0.1" || a.ip(256) != "10.96.1.0" {
		t.Fatalf("allocator: %v %s %s", err, a.ip(1), a.ip(256))
	}
	if _, err := newIPAllocator("fd00::/64"); err == nil {
		t.Fatal("IPv6 service CIDR should be refused")
	}
}
