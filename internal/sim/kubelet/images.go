package kubelet

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	corev1 "k8s.io/api/core/v1"
)

// resolveTime is what a pull costs when every layer is already on the node:
// containerd still resolves the tag against the registry (a manifest GET).
const resolveTime = 200 * time.Millisecond

// pullTime is how long containerd takes to pull an image of size bytes; a
// pull of an image already present only resolves its manifest.
func pullTime(size int64, present bool) time.Duration {
	if present {
		return resolveTime
	}
	return resolveTime + time.Duration(size*int64(time.Second)/pullBandwidth)
}

// puller is the kubelet's serialImagePuller (pkg/kubelet/images/puller.go):
// with serializeImagePulls true, its default, the node pulls one image at a
// time; every other request waits in its queue, even one for the image
// being pulled right now.
type puller struct {
	busy  bool
	queue []*pullRequest
}

type pullRequest struct {
	ps     *podState
	c      *corev1.Container
	queued time.Duration // when EnsureImageExists asked (the Pulling event)
	worker *engine.Proc  // the pod worker waiting for the pull
	done   bool
}

// ensureImage is imageManager.EnsureImageExists: an image the policy lets
// the node reuse, and that a finished pull put there, is used at once
// (event Pulled "already present"); otherwise the pull joins the queue
// (event Pulling) and the worker waits until the puller has run it (event
// Pulled with the pull time and the time including the wait).
func (k *Kubelet) ensureImage(p *engine.Proc, ps *podState, c *corev1.Container) {
	pod := ps.pod
	_, present := k.images[c.Image]
	if c.ImagePullPolicy == corev1.PullNever || (c.ImagePullPolicy == corev1.PullIfNotPresent && present) {
		if !k.rec.Full() { // arguments are built only for a kept step
			k.criStep("ImagePresent", pod, "image", c.Image, "container", c.Name, "policy", string(c.ImagePullPolicy))
		}
		// image_manager.go: with KubeletEnsureSecretPulledImages (beta, on
		// by default since v1.35) the text ends "and can be accessed by the pod".
		k.containerEvent(pod, c.Name, "Normal", "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
		return
	}
	k.containerEvent(pod, c.Name, "Normal", "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
	r := &pullRequest{ps: ps, c: c, queued: k.eng.Now(), worker: p}
	k.puller.queue = append(k.puller.queue, r)
	k.nextPull()
	for !r.done {
		p.Park()
	}
}

// nextPull starts the request at the head of the queue when the puller is free.
func (k *Kubelet) nextPull() {
	if k.puller.busy || len(k.puller.queue) == 0 {
		return
	}
	r := k.puller.queue[0]
	k.puller.queue = k.puller.queue[1:]
	k.puller.busy = true
	_, present := k.images[r.c.Image]
	size := ImageSize(r.c.Image)
	d := pullTime(size, present)
	k.eng.After(d, func() { k.pulled(r, present, size, d) })
}

// pulled ends the puller's current pull after d: the image is on the node,
// the waiting worker goes on (up to its next wait, before the next pull
// starts), and the queue moves.
func (k *Kubelet) pulled(r *pullRequest, present bool, size int64, d time.Duration) {
	k.puller.busy = false
	// Only now is the image on the node: a pod that looks for it earlier
	// queues its own pull behind this one.
	k.images[r.c.Image] = size
	pod := r.ps.pod
	total := k.eng.Now() - r.queued
	call := "PullImage"
	if present {
		call = "PullImageResolved" // another pod's pull brought it while this one queued
	}
	k.criStep(call, pod, "image", r.c.Image, "container", r.c.Name, "size", HumanBytes(size), "took", d,
		"queued", total-d)
	k.containerEvent(pod, r.c.Name, "Normal", "Pulled", PulledMessage(r.c.Image, d, total, size))
	r.done = true
	r.worker.Wake() // a worker whose pod went away returns at once
	k.nextPull()
}

// PulledMessage is the kubelet's Pulled event after a pull
// (pkg/kubelet/images/image_manager.go pullImage): both durations
// truncated to milliseconds, the size in bytes as the runtime reports it.
func PulledMessage(image string, pull, total time.Duration, size int64) string {
	return fmt.Sprintf("Successfully pulled image %q in %v (%v including waiting). Image size: %d bytes.",
		image, pull.Truncate(time.Millisecond), total.Truncate(time.Millisecond), size)
}

// DockerReference is how containerd names an image in its errors: the
// docker.io registry and the library/ namespace filled in
// (distribution/reference ParseNormalizedNamed).
func DockerReference(image string) string {
	first, _, ok := strings.Cut(image, "/")
	if ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return image
	}
	if !ok {
		return "docker.io/library/" + image
	}
	return "docker.io/" + image
}
