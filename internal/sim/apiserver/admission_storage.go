package apiserver

import (
	"slices"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// AnnDefaultStorageClass marks the class the DefaultStorageClass plugin
// gives claims that name none (k8s.io/component-helpers/storage/volume:
// IsDefaultAnnotation; the beta key is no longer written).
const AnnDefaultStorageClass = "storageclass.kubernetes.io/is-default-class"

// The finalizers StorageObjectInUseProtection puts on every new claim and
// volume (plugin/pkg/admission/storage/storageobjectinuseprotection;
// pkg/util/... PVCProtectionFinalizer, PVProtectionFinalizer).
const (
	PVCProtectionFinalizer = "kubernetes.io/pvc-protection"
	PVProtectionFinalizer  = "kubernetes.io/pv-protection"
)

// mutateStorage runs the mutating plugins of a claim's or a volume's
// create, in upstream's order (pkg/kubeapiserver/options/plugins.go:
// DefaultStorageClass before StorageObjectInUseProtection).
func (s *Server) mutateStorage(obj runtime.Object) []any {
	var did []any
	switch o := obj.(type) {
	case *corev1.PersistentVolumeClaim:
		// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/
		// setdefault/admission.go): only a claim whose storageClassName is
		// unset — "" asks for no class — and only when a default exists
		// (GetDefaultClass: the newest of several).
		if o.Spec.StorageClassName == nil {
			if def := s.defaultClass(); def != "" {
				o.Spec.StorageClassName = &def
				did = append(did, trace.P("admission.defaultclass", def))
			}
		}
		if !slices.Contains(o.Finalizers, PVCProtectionFinalizer) {
			o.Finalizers = append(o.Finalizers, PVCProtectionFinalizer)
			did = append(did, trace.P("admission.inuseprotection", PVCProtectionFinalizer))
		}
	case *corev1.PersistentVolume:
		if !slices.Contains(o.Finalizers, PVProtectionFinalizer) {
			o.Finalizers = append(o.Finalizers, PVProtectionFinalizer)
			did = append(did, trace.P("admission.inuseprotection", PVProtectionFinalizer))
		}
	}
	return did
}

// defaultClass names the default StorageClass, "" when there is none; of
// several the newest wins, then the name (GetDefaultClass).
func (s *Server) defaultClass() string {
	var best *storagev1.StorageClass
	for _, o := range s.List("storageclasses") {
		sc := o.(*storagev1.StorageClass)
		if sc.Annotations[AnnDefaultStorageClass] != "true" {
			continue
		}
		if best == nil || sc.CreationTimestamp.After(best.CreationTimestamp.Time) ||
			(sc.CreationTimestamp.Equal(&best.CreationTimestamp) && sc.Name < best.Name) {
			best = sc
		}
	}
	if best == nil {
		return ""
	}
	return best.Name
}
