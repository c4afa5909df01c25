package manifest

import corev1 "k8s.io/api/core/v1"

// claim is SetDefaults_PersistentVolumeClaimSpec and
// SetDefaults_PersistentVolumeClaim (pkg/apis/core/v1/defaults.go,
// v1.37): volumeMode Filesystem, phase Pending. prefix is the claim's
// path ("" for a claim, "spec.volumeClaimTemplates[0]." in a StatefulSet).
func (d *defaulter) claim(c *corev1.PersistentVolumeClaim, prefix string) {
	if c.Spec.VolumeMode == nil {
		fs := corev1.PersistentVolumeFilesystem
		c.Spec.VolumeMode = &fs
		d.note(prefix+"spec.volumeMode", string(fs))
	}
	d.str((*string)(&c.Status.Phase), string(corev1.ClaimPending), prefix+"status.phase")
}

// persistentVolume is SetDefaults_PersistentVolume: phase Pending, reclaim policy
// Retain, volumeMode Filesystem.
func (d *defaulter) persistentVolume(v *corev1.PersistentVolume) {
	d.str((*string)(&v.Status.Phase), string(corev1.VolumePending), "status.phase")
	d.str((*string)(&v.Spec.PersistentVolumeReclaimPolicy), string(corev1.PersistentVolumeReclaimRetain), "spec.persistentVolumeReclaimPolicy")
	if v.Spec.VolumeMode == nil {
		fs := corev1.PersistentVolumeFilesystem
		v.Spec.VolumeMode = &fs
		d.note("spec.volumeMode", string(fs))
	}
}
