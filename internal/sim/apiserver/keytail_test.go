package apiserver

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// keyTail cuts MetaKey from the registry key, and builds it when the key
// does not end in it.
func TestKeyTail(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-1"}}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a"}}
	for _, tc := range []struct {
		key string
		obj runtime.Object
	}{
		{Key(ResourceOf(pod), "ns", "web-1"), pod},
		{Key(ResourceOf(node), "", "node-a"), node},
		{"/registry/pods/other/web-1", pod},
		{"/registry/pods/xns/web-1", pod},
		{"web-1", pod},
		{"", node},
	} {
		if got, want := keyTail(tc.key, Meta(tc.obj)), MetaKey(tc.obj); got != want {
			t.Errorf("keyTail(%q) = %q, want %q", tc.key, got, want)
		}
	}
}

// appendKey writes the bytes Key returns, for every shape of key.
func TestAppendKey(t *testing.T) {
	for _, r := range []Resource{
		podResource,
		{Kind: "Node", Plural: "nodes", Version: "v1"},
		{Kind: "Service", Plural: "services", Version: "v1", Namespaced: true},
		{Kind: "Endpoints", Plural: "endpoints", Version: "v1", Namespaced: true},
		{Group: "example.com", Kind: "Widget", Plural: "widgets", Version: "v1", Namespaced: true},
		{Group: "apps", Kind: "Deployment", Plural: "deployments", Version: "v1", Namespaced: true},
	} {
		if got, want := string(appendKey([]byte("x"), r, "ns", "name")), "x"+Key(r, "ns", "name"); got != want {
			t.Errorf("appendKey(%s) = %q, want %q", r.Kind, got, want)
		}
	}
}
