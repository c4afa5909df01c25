package watchload

import (
	"encoding/json"
	"fmt"
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/nodeset"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Sizes are JSON sizes in bytes, measured with encoding/json on k8s.io/api
// objects (not estimated).
type Sizes struct {
	// Pod is the mean size of one pod as an item of a PodList (items carry
	// no kind/apiVersion); PodMin and PodMax bound it.
	Pod    int64 `json:"pod"`
	PodMin int64 `json:"podMin"`
	PodMax int64 `json:"podMax"`
	// Node is the mean size of one node as a NodeList item.
	Node int64 `json:"node"`
	// PodList and NodeList are whole LIST response bodies.
	PodList  int64 `json:"podList"`
	NodeList int64 `json:"nodeList"`
	// PodEvent and NodeEvent are one watch event line
	// ({"type":"MODIFIED","object":{...}}\n); Bookmark is a BOOKMARK line.
	PodEvent  int64 `json:"podEvent"`
	NodeEvent int64 `json:"nodeEvent"`
	Bookmark  int64 `json:"bookmark"`
	// PodStream and NodeStream are a streaming list's initial state: one
	// ADDED event line per object ({"type":"ADDED","object":{...}}\n, the
	// object with its kind and apiVersion), ending with InitialEventsEnd, the
	// BOOKMARK annotated k8s.io/initial-events-end.
	PodStream        int64 `json:"podStream"`
	NodeStream       int64 `json:"nodeStream"`
	InitialEventsEnd int64 `json:"initialEventsEnd"`
}

// alphabet is apimachinery's rand.SafeEncodeString alphabet, which the
// ReplicaSet controller's generateName suffixes come from.
const alphabet = "bcdfghjklmnpqrstvwxz2456789"

// objects builds the cluster's pods and nodes one at a time and measures
// them. Every variable field of a pod or a node is a string whose length is
// all that matters to its JSON size, so the size of an object is memoised by
// the lengths of those strings: the first object of each shape is really
// marshalled, the others of the same shape have the same size byte for byte
// (TestSizesExact checks this against marshalling every object).
type objects struct {
	rng      *rand.Rand
	template corev1.PodTemplateSpec
	rsName   string
	rsUID    types.UID
	nodes    []*corev1.Node
	podSize  map[[4]int]int64
	nodeSize map[[4]int]int64
}

func newObjects(rng *rand.Rand, nodes int) (*objects, error) {
	// The pods are the bundled example's Deployment, as `trace apply`
	// would create them (parsed and defaulted by the same loader).
	objs, err := manifest.Parse("web.yaml", []byte(webDeployment))
	if err != nil {
		return nil, err
	}
	var dep *appsv1.Deployment
	for _, o := range objs {
		if d, ok := o.Obj.(*appsv1.Deployment); ok {
			dep = d
		}
	}
	if dep == nil {
		return nil, fmt.Errorf("web.yaml has no Deployment")
	}
	o := &objects{rng: rng, template: *dep.Spec.Template.DeepCopy(),
		podSize: map[[4]int]int64{}, nodeSize: map[[4]int]int64{}}
	hash := controller.PodTemplateHash(&dep.Spec.Template, nil)
	o.rsName = dep.Name + "-" + hash
	o.rsUID = types.UID(o.uuid())
	if o.template.Labels == nil {
		o.template.Labels = map[string]string{}
	}
	o.template.Labels["pod-template-hash"] = hash
	o.nodes = nodeset.DefaultNodes(nodes, false)
	// podCIDRs as node-ipam hands them out (the default cluster CIDR,
	// widened for large clusters, /24 per node).
	if err := nodeset.AllocateNodeCIDRs(o.nodes, nodeset.ClusterCIDRFor(len(o.nodes)), nodeset.DefaultNodeCIDRMaskSize); err != nil {
		return nil, err
	}
	return o, nil
}

// uuid draws a version-4 UUID from the seeded source.
func (o *objects) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(o.rng.IntN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (o *objects) suffix(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[o.rng.IntN(len(alphabet))]
	}
	return string(b)
}

func (o *objects) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[o.rng.IntN(16)]
	}
	return string(b)
}

var (
	created = metav1.NewTime(apiserver.Epoch)
	started = metav1.NewTime(apiserver.Epoch.Add(7 * time.Second))
	// imageDigest is fixed: every pod runs the same image.
	imageDigest = "sha256:" + fmt.Sprintf("%064x", 0x6b38736578706c61)
)

// pod builds pod i, running on node i%len(nodes), as the simulator's
// ReplicaSet controller, admission, scheduler and kubelet leave it, plus the
// status fields a real kubelet also reports (hostIP, startTime,
// containerStatuses). managedFields are left out, so real pods are larger.
func (o *objects) pod(i int, rv int64) *corev1.Pod {
	node := o.nodes[i%len(o.nodes)]
	t := o.template.DeepCopy()
	p := &corev1.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	p.Namespace = "default"
	p.GenerateName = o.rsName + "-"
	p.Name = p.GenerateName + o.suffix(5)
	p.UID = types.UID(o.uuid())
	p.ResourceVersion = strconv.FormatInt(rv, 10)
	p.CreationTimestamp = created
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: o.rsName,
		UID: o.rsUID, Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}
	// Admission: ServiceAccount (the kube-api-access projected volume, with
	// the three sources plugin/pkg/admission/serviceaccount adds) and
	// DefaultTolerationSeconds (300 s for not-ready and unreachable).
	vol := "kube-api-access-" + o.suffix(5)
	p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount = "default", "default"
	p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: vol, VolumeSource: corev1.VolumeSource{
		Projected: &corev1.ProjectedVolumeSource{DefaultMode: ptr(int32(420)), Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3607))}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace",
				FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		}},
	}})
	for c := range p.Spec.Containers {
		p.Spec.Containers[c].VolumeMounts = append(p.Spec.Containers[c].VolumeMounts, corev1.VolumeMount{
			Name: vol, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"})
	}
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists,
			Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))})
	}
	// Scheduler and kubelet.
	p.Spec.NodeName = node.Name
	hostIP := nodeIP(i % len(o.nodes))
	podIP := podIP(node, i/len(o.nodes))
	p.Status = corev1.PodStatus{Phase: corev1.PodRunning, HostIP: hostIP, HostIPs: []corev1.HostIP{{IP: hostIP}},
		PodIP: podIP, PodIPs: []corev1.PodIP{{IP: podIP}}, StartTime: &created, QOSClass: corev1.PodQOSBurstable}
	for _, c := range []corev1.PodConditionType{corev1.PodReadyToStartContainers, corev1.PodInitialized,
		corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled} {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: c, Status: corev1.ConditionTrue, LastTransitionTime: started})
	}
	for _, c := range p.Spec.Containers {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Ready: true, Started: ptr(true), Image: "docker.io/library/" + c.Image,
			ImageID:     "docker.io/library/" + c.Image + "@" + imageDigest,
			ContainerID: "containerd://" + o.hex(64),
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
		})
	}
	return p
}

// node returns node j with the status a real kubelet reports (addresses,
// nodeInfo, the four conditions, daemon endpoints) on top of the
// simulator's default node.
func (o *objects) node(j int, rv int64) *corev1.Node {
	n := o.nodes[j].DeepCopy()
	n.UID = types.UID(o.uuid())
	n.ResourceVersion = strconv.FormatInt(rv, 10)
	n.CreationTimestamp = created
	n.Annotations = map[string]string{"node.alpha.kubernetes.io/ttl": "0",
		"volumes.kubernetes.io/controller-managed-attach-detach": "true"}
	n.Labels["beta.kubernetes.io/os"], n.Labels["beta.kubernetes.io/arch"] = "linux", "amd64"
	n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: nodeIP(j)}, {Type: corev1.NodeHostName, Address: n.Name}}
	n.Status.DaemonEndpoints.KubeletEndpoint.Port = 10250
	n.Status.NodeInfo = corev1.NodeSystemInfo{MachineID: o.hex(32), SystemUUID: o.uuid(), BootID: o.uuid(),
		KernelVersion: "6.8.0-51-generic", OSImage: "Ubuntu 24.04.1 LTS", ContainerRuntimeVersion: "containerd://2.1.4",
		KubeletVersion: k8sversion.Version, OperatingSystem: "linux", Architecture: "amd64"}
	beat := metav1.NewTime(apiserver.Epoch.Add(5 * time.Minute))
	conds := []struct{ t, reason, msg string }{
		{"MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
		{"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
		{"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
		{"Ready", "KubeletReady", "kubelet is posting ready status"},
	}
	n.Status.Conditions = nil
	for _, c := range conds {
		st := corev1.ConditionFalse
		if c.t == "Ready" {
			st = corev1.ConditionTrue
		}
		n.Status.Conditions = append(n.Status.Conditions, corev1.NodeCondition{Type: corev1.NodeConditionType(c.t), Status: st,
			LastHeartbeatTime: beat, LastTransitionTime: created, Reason: c.reason, Message: c.msg})
	}
	n.Status.Capacity[corev1.ResourceName("hugepages-2Mi")] = resource.MustParse("0")
	n.Status.Allocatable[corev1.ResourceName("hugepages-2Mi")] = resource.MustParse("0")
	return n
}

// nodeIP is worker j's InternalIP, in 10.0.0.0/16 as kubeadm clusters often use.
func nodeIP(j int) string { return fmt.Sprintf("10.0.%d.%d", (j+10)/250, (j+10)%250+1) }

// podIP is the k-th address the kubelet hands out in the node's podCIDR
// (.0 is the network, .1 the bridge, so the first pod gets .2).
func podIP(n *corev1.Node, k int) string {
	base := n.Spec.PodCIDR[:len(n.Spec.PodCIDR)-len("0/24")]
	return base + strconv.Itoa(k+2)
}

func mustSize(v any) int64 {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("watchload: marshal %T: %v", v, err)) // k8s.io/api objects always marshal
	}
	return int64(len(b))
}

// podItemSize is the size of pod i as a list item, memoised by shape.
func (o *objects) podItemSize(i int, rv int64) int64 {
	node := o.nodes[i%len(o.nodes)]
	key := [4]int{len(node.Name), len(nodeIP(i % len(o.nodes))), len(podIP(node, i/len(o.nodes))), len(strconv.FormatInt(rv, 10))}
	if s, ok := o.podSize[key]; ok {
		return s
	}
	s := mustSize(o.pod(i, rv))
	o.podSize[key] = s
	return s
}

func (o *objects) nodeItemSize(j int, rv int64) int64 {
	key := [4]int{len(o.nodes[j].Name), len(o.nodes[j].Spec.PodCIDR), len(nodeIP(j)), len(strconv.FormatInt(rv, 10))}
	if s, ok := o.nodeSize[key]; ok {
		return s
	}
	s := mustSize(o.node(j, rv))
	o.nodeSize[key] = s
	return s
}

// listSize is a list body: the envelope marshalled with no items, plus the
// items and the commas between them.
func listSize(envelope any, items, n int64) int64 {
	size := mustSize(envelope) + items
	if n > 1 {
		size += n - 1
	}
	return size
}

// eventSize is one line of a watch stream: {"type":T,"object":obj}\n, the
// object carrying its kind and apiVersion.
func eventSize(typ string, obj any) int64 {
	raw, _ := json.Marshal(obj)
	return mustSize(struct {
		Type   string          `json:"type"`
		Object json.RawMessage `json:"object"`
	}{typ, raw}) + 1
}

// measure builds every object once (by shape) and returns the sizes. Pods
// get resourceVersions 1000+i, nodes after them, as a store that created
// them in order would.
func measure(rng *rand.Rand, pods, nodes int) (Sizes, error) {
	o, err := newObjects(rng, nodes)
	if err != nil {
		return Sizes{}, err
	}
	var s Sizes
	var podTotal, nodeTotal int64
	s.PodMin = -1
	for i := 0; i < pods; i++ {
		z := o.podItemSize(i, int64(1000+i))
		podTotal += z
		if s.PodMin < 0 || z < s.PodMin {
			s.PodMin = z
		}
		s.PodMax = max(s.PodMax, z)
	}
	for j := 0; j < nodes; j++ {
		nodeTotal += o.nodeItemSize(j, int64(1000+pods+j))
	}
	last := strconv.Itoa(1000 + pods + nodes)
	s.Pod, s.Node = podTotal/int64(pods), nodeTotal/int64(nodes)
	s.PodList = listSize(&corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: last}, Items: []corev1.Pod{}}, podTotal, int64(pods))
	s.NodeList = listSize(&corev1.NodeList{TypeMeta: metav1.TypeMeta{Kind: "NodeList", APIVersion: "v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: last}, Items: []corev1.Node{}}, nodeTotal, int64(nodes))
	p := o.pod(pods/2, int64(1000+pods+nodes+1))
	p.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
	s.PodEvent = eventSize("MODIFIED", p)
	n := o.node(0, int64(1000+pods+nodes+1))
	n.TypeMeta = metav1.TypeMeta{Kind: "Node", APIVersion: "v1"}
	s.NodeEvent = eventSize("MODIFIED", n)
	// A bookmark carries an empty object of the watched kind with only
	// metadata.resourceVersion set.
	s.Bookmark = eventSize("BOOKMARK", &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{ResourceVersion: last}})
	// The streaming list's end: the watch cache's bookmark with the
	// k8s.io/initial-events-end annotation (apimachinery
	// metav1.InitialEventsAnnotationKey, KEP-3157).
	s.InitialEventsEnd = eventSize("BOOKMARK", &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{ResourceVersion: last, Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}})
	// An ADDED event line is the list item plus the event's envelope and
	// the object's kind and apiVersion, which list items leave out.
	envelope := func(obj any, item int64) int64 { return eventSize("ADDED", obj) - item }
	pi := *p
	pi.TypeMeta = metav1.TypeMeta{}
	ni := *n
	ni.TypeMeta = metav1.TypeMeta{}
	s.PodStream = podTotal + int64(pods)*envelope(p, mustSize(&pi)) + s.InitialEventsEnd
	s.NodeStream = nodeTotal + int64(nodes)*envelope(n, mustSize(&ni)) + s.InitialEventsEnd
	return s, nil
}

func ptr[T any](v T) *T { return &v }
