// Package sim wires the simulated cluster together: an engine, the API
// server and its store, the controllers, the scheduler, a kubelet and a
// kube-proxy per node, and CoreDNS — and a kubectl that applies manifests.
// Components see one another only through the API server. Run returns the
// trace of everything they did.
package sim

import (
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Config shapes the cluster.
type Config struct {
	Seed int64
	// Workers is the number of identical worker nodes (default 3) when
	// Nodes is empty.
	Workers int
	// Nodes, when set, are the cluster's worker nodes (from --cluster).
	Nodes []*corev1.Node
	// StepLimit caps recorded steps (0: unlimited, negative: none); more
	// are only counted.
	StepLimit int
	// EndpointUpdatesBatchPeriod is the endpointslice controller's
	// --endpoint-updates-batch-period (0, upstream's default: every pod
	// change is written on its own).
	EndpointUpdatesBatchPeriod time.Duration
	// ScaleReport fills the summary's scale section even on a small
	// cluster (it is filled anyway past proxySample nodes).
	ScaleReport bool
	// Deadline is the virtual time limit of a run (default 10 minutes).
	Deadline time.Duration
	// MissingImages are images the registry does not have.
	MissingImages map[string]bool
	// App is how containers react to SIGTERM (default handles-sigterm).
	App kubelet.App
	// Mutate, when set, edits every pod spec the manifests carry before
	// they are applied (e.g. adding a preStop hook).
	Mutate          func(*corev1.PodSpec)
	FieldManagement bool // managedFields and server-side apply (apply-modes only)
	// Extra objects join the scene after the user's manifests.
	Extra []manifest.Object
	// Disruption runs kube-controller-manager's disruption controller,
	// which keeps PodDisruptionBudgets' status for the eviction API (the
	// drain story; other traces leave it out, as their manifests have no
	// budget to keep).
	Disruption bool
	// Heartbeats runs kubelet Leases and the node lifecycle controller
	// (the node-failure story; apply traces leave them out).
	Heartbeats bool
	// Autoscaling runs the horizontal-pod-autoscaler controller and
	// metrics-server (the autoscale story; other traces leave them out).
	Autoscaling bool
	// StatefulSets runs the statefulset controller, the persistent volume
	// binder and a CSI provisioner (set when the manifests hold a
	// StatefulSet: NeedsStatefulSets).
	StatefulSets bool
	// Volumes gives the cluster kind's default StorageClass "standard"
	// (rancher.io/local-path, WaitForFirstConsumer) and runs what binds
	// claims: the PV controller, the local-path provisioner and the
	// scheduler's VolumeBinding informers (set when the manifests use
	// PersistentVolumeClaims: NeedsVolumes).
	Volumes bool
	// ClusterCIDR and NodeCIDRMaskSize are node-ipam's --cluster-cidr and
	// --node-cidr-mask-size (defaults: ClusterCIDRFor the node count, 24).
	ClusterCIDR      string
	NodeCIDRMaskSize int
	// Progress, when set, is told now and then how far a run got: the
	// virtual time, and count, which counts pods Running and pods in all
	// (O(pods): call it only when the line is shown). It only reports; the
	// run is the same with or without it.
	Progress func(now time.Duration, count func() (running, pods int))
	// Scheduler, when set, is the kube-scheduler profile (from
	// --scheduler-config); nil runs the default profile. SchedulerSource
	// names the file it came from, for the trace.
	Scheduler       *scheduler.Profile
	SchedulerSource string
	// LogWrites keeps the API server's log of write requests (Writes), for
	// the comparison with a real control plane's audit log.
	LogWrites bool
	// RecordState keeps the log of the cluster's object changes
	// (trace.StateLog) for the HTML player and --at; StateLimit bounds it
	// (0: trace.DefaultStateLimit).
	RecordState bool
	StateLimit  int
	// OnCommit, when set, is told every committed change as the API
	// server's watchers receive it, and every Event stored (the objects
	// test compares them with the recorded ones).
	OnCommit CommitFunc
	// Webhooks are admission webhooks that do not answer (trace apply
	// --webhook): the API server waits timeoutSeconds on each call.
	Webhooks []apiserver.Webhook
}

// CommitFunc is told one committed change: its watch event type (ADDED,
// MODIFIED, DELETED), etcd revision, "namespace/name" key and object.
type CommitFunc func(typ string, rev int64, key string, obj runtime.Object)

// proxySample is how many nodes run a simulated kube-proxy.
const proxySample = 10

// ServiceCIDR and ClusterDomain are the kubeadm defaults.
const (
	ServiceCIDR   = "10.96.0.0/12"
	ClusterDomain = "cluster.local"
)

// Cluster is a running simulated cluster.
type Cluster struct {
	cfg          Config
	eng          *engine.Engine
	rec          *trace.Recorder
	api          *apiserver.Server
	sched        *schedAgent
	kubectl      *apiserver.Client
	nodes        []*corev1.Node
	readyAt      time.Duration
	failed       string
	clientErrs   []string // kubectl's own errors, as it prints them
	unmod        []string
	start        time.Duration
	deploy       *controller.Deployment
	slices       *controller.EndpointSlice
	kubelets     map[string]*kubelet.Kubelet
	eventsBefore int
	proxy        *proxyAgent            // the first worker's kube-proxy (the clients' node)
	proxies      map[string]*proxyAgent // by node, the simulated ones
	nodeLife     *controller.NodeLifecycle
	comps        []Component // in start order
	hpa          *controller.HPA
	metrics      *metricsServer
	state        *trace.StateLog
}

// NewCluster builds the nodes and starts every component.
func NewCluster(cfg Config) (*Cluster, error) {
	if cfg.Deadline == 0 {
		cfg.Deadline = 10 * time.Minute
	}
	eng := engine.New(cfg.Seed)
	c := &Cluster{cfg: cfg, eng: eng}
	if cfg.Progress != nil {
		eng.Tick = c.progress
	}
	c.rec = trace.NewRecorder(eng.Now, cfg.StepLimit)
	api, err := apiserver.New(eng, c.rec, ServiceCIDR)
	if err != nil {
		return nil, err
	}
	api.Default = manifest.Default
	api.Validate = manifest.Validate
	api.LogWrites = cfg.LogWrites
	api.Webhooks = cfg.Webhooks
	if err := enableFieldManagement(api, cfg); err != nil {
		return nil, err
	}
	c.api = api
	seedBootstrap(api)
	if cfg.Volumes {
		api.Seed(defaultStorageClass())
	}
	if c.nodes, err = clusterNodes(cfg); err != nil {
		return nil, err
	}
	for _, n := range c.nodes {
		api.Seed(n)
	}
	if c.comps, err = c.components(); err != nil {
		return nil, err
	}
	for _, comp := range c.comps {
		comp.Start()
	}
	// Past proxySample nodes the other kube-proxies are counted, not
	// simulated (their work is identical).
	if extra := len(c.nodes) - proxySample; extra > 0 {
		api.CountWatchers("services", extra)
		api.CountWatchers("endpointslices", extra)
	}
	c.kubectl = api.NewClient("kubectl", cert("kubernetes-admin", "kubeadm:cluster-admins"), trace.PhaseKubectl)
	c.kubectl.Loud = true
	if cfg.RecordState {
		if c.cfg.StateLimit == 0 {
			c.cfg.StateLimit = trace.DefaultStateLimit
		}
		c.startStateLog()
		api.OnCommit = c.logState
	}
	if hook := cfg.OnCommit; hook != nil {
		tell := func(ev apiserver.Event) { hook(string(ev.Type), ev.Rev, apiserver.MetaKey(ev.Obj), ev.Obj) }
		c.addCommitHook(tell)
		api.OnEvent = tell
	}
	return c, nil
}

// components lists the cluster's processes in the order they start, each
// on its own client: the controllers, the scheduler, per node a kubelet
// and (on the first proxySample nodes) a kube-proxy, the node lifecycle
// controller and the kubelets' heartbeats when Config.Heartbeats, CoreDNS.
func (c *Cluster) components() ([]Component, error) {
	api, eng, rec := c.api, c.eng, c.rec
	saClient := func(name, account string, phase trace.Phase) *apiserver.Client {
		return api.NewClient(name, sa(account), phase)
	}
	// kube-controller-manager's controllers share one informer factory on
	// its own client, started after them (controllermanager.go:
	// rootClientBuilder.ClientOrDie("shared-informers"), then
	// InformerFactory.Start once the controllers are started); each
	// controller writes with its own service account.
	kcm := informer.NewFactory(api.NewClient("kube-controller-manager", cert("system:kube-controller-manager"), trace.PhaseController))
	c.deploy = controller.NewDeployment(kcm, saClient("deployment-controller", "deployment-controller", trace.PhaseController), eng, rec)
	rs := controller.NewReplicaSet(kcm, saClient("replicaset-controller", "replicaset-controller", trace.PhaseController), eng, rec)
	c.slices = controller.NewEndpointSlice(kcm, saClient("endpointslice-controller", "endpointslice-controller", trace.PhaseReady), eng, rec)
	quota := controller.NewResourceQuota(kcm, saClient("resourcequota-controller", "resourcequota-controller", trace.PhaseController), eng, rec)
	// The serviceaccount controller and the root-ca-cert-publisher fill
	// every new namespace (cmd/kube-controller-manager/app/core.go,
	// certificates.go: clients "service-account-controller" and
	// "root-ca-cert-publisher").
	sas := controller.NewServiceAccounts(kcm, saClient("service-account-controller", "service-account-controller", trace.PhaseController), eng, rec)
	rootCA := controller.NewRootCAPublisher(kcm, saClient("root-ca-cert-publisher", "root-ca-cert-publisher", trace.PhaseController), eng, rec)
	if c.cfg.Heartbeats {
		c.nodeLife = controller.NewNodeLifecycle(kcm, saClient("node-lifecycle-controller", "node-controller", trace.PhaseController), eng, rec)
		c.nodeLife.Eviction = saClient("taint-eviction-controller", "taint-eviction-controller", trace.PhaseController)
	}
	c.slices.BatchPeriod = c.cfg.EndpointUpdatesBatchPeriod
	c.sched = newSchedAgent(api.NewClient("default-scheduler", cert("system:kube-scheduler"), trace.PhaseScheduler), eng, rec)
	if c.cfg.Disruption {
		c.sched.pdbs = informer.New[*policyv1.PodDisruptionBudget]("poddisruptionbudgets")
	}
	if c.cfg.Scheduler != nil {
		c.sched.useProfile(*c.cfg.Scheduler, c.cfg.SchedulerSource)
	}
	if c.cfg.Volumes {
		c.sched.enableVolumes()
	}
	comps := []Component{c.deploy, rs, c.slices, quota, sas, rootCA}
	comps = append(comps, c.optionalControllers(kcm, saClient)...)
	comps = append(comps, kcm, c.sched)
	c.kubelets = map[string]*kubelet.Kubelet{}
	first := firstWorker(c.nodes)
	for i, n := range c.nodes {
		k, err := kubelet.New(api.NewClient("kubelet/"+n.Name, cert("system:node:"+n.Name, "system:nodes"), trace.PhaseKubelet), eng, rec, n)
		if err != nil {
			return nil, err
		}
		k.OnReady = c.podReady
		k.Missing = c.cfg.MissingImages
		if c.cfg.App != "" {
			k.App = c.cfg.App
		}
		c.kubelets[n.Name] = k
		comps = append(comps, k)
		// Every node's kube-proxy reprograms its rules; the first worker's
		// syncs are shown, the others' with -v.
		if i < proxySample {
			pa := newProxyAgent(saClient("kube-proxy/"+n.Name, "kube-proxy", trace.PhaseReady), eng, rec, n.Name, i == first)
			if i == first {
				c.proxy = pa
			}
			if c.cfg.RecordState {
				pa.onRules = c.logRules
			}
			if c.proxies == nil {
				c.proxies = map[string]*proxyAgent{}
			}
			c.proxies[n.Name] = pa
			comps = append(comps, pa)
		}
	}
	if c.cfg.Heartbeats {
		comps = append(comps, c.nodeLife)
		for _, n := range c.nodes {
			comps = append(comps, heartbeat{c.kubelets[n.Name]})
		}
	}
	comps = append(comps, c.addOns()...)
	return append(comps, newDNSAgent(saClient("coredns", "coredns", trace.PhaseReady), rec, ClusterDomain)), nil
}

// optionalControllers are the controllers only some stories run
// (Config.Disruption, Autoscaling, StatefulSets), so the other traces keep
// their watches and requests.
func (c *Cluster) optionalControllers(kcm *informer.Factory, saClient func(name, account string, phase trace.Phase) *apiserver.Client) []Component {
	eng, rec := c.eng, c.rec
	var comps []Component
	if c.cfg.Disruption {
		comps = append(comps, controller.NewDisruption(kcm, saClient("disruption-controller", "disruption-controller", trace.PhaseController), eng, rec))
	}
	if c.cfg.Autoscaling {
		// metrics-server is an add-on in kube-system with its own service
		// account; the HPA controller reads it through the aggregated API.
		c.metrics = newMetricsServer(saClient("metrics-server", "metrics-server", trace.PhaseReady), eng, rec)
		c.hpa = controller.NewHPA(kcm, saClient("horizontal-pod-autoscaler", "horizontal-pod-autoscaler", trace.PhaseController), eng, rec, c.metrics)
		comps = append(comps, c.hpa)
	}
	if c.cfg.StatefulSets {
		comps = append(comps, controller.NewStatefulSet(kcm, saClient("statefulset-controller", "statefulset-controller", trace.PhaseController), eng, rec))
	}
	if c.cfg.Volumes {
		// kube-controller-manager's client "persistent-volume-binder"; its
		// events' source is "persistentvolume-controller".
		pvc := saClient("persistent-volume-binder", "persistent-volume-binder", trace.PhaseController)
		pvc.Component = "persistentvolume-controller"
		comps = append(comps, controller.NewPVBinder(kcm, pvc, eng, rec))
	}
	return comps
}

// sa is a service account's identity in kube-system (a controller of
// kube-controller-manager with --use-service-account-credentials, or an
// add-on).
func sa(name string) apiserver.Identity {
	return apiserver.Identity{User: "system:serviceaccount:kube-system:" + name,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"}, Method: "service account token (JWT)"}
}

// cert is an identity from an x509 client certificate.
func cert(user string, groups ...string) apiserver.Identity {
	return apiserver.Identity{User: user, Groups: append(groups, "system:authenticated"), Method: "x509 client certificate"}
}

// seedBootstrap stores what kubeadm creates before any component runs: the
// namespaces and the kubernetes Service; and what kube-controller-manager
// wrote into those namespaces long before the trace starts (the
// ServiceAccount "default", the kube-root-ca.crt ConfigMap), so that its
// controllers find nothing to do there.
func seedBootstrap(api *apiserver.Server) {
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		n := &corev1.Namespace{}
		n.Name = ns
		n.Labels = map[string]string{corev1.LabelMetadataName: ns}
		n.Spec.Finalizers = []corev1.FinalizerName{corev1.FinalizerKubernetes}
		n.Status.Phase = corev1.NamespaceActive
		api.Seed(n)
	}
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		sa := &corev1.ServiceAccount{}
		sa.Name, sa.Namespace = controller.DefaultServiceAccount, ns
		api.SeedBefore(sa)
		api.SeedBefore(controller.RootCAConfigMap(ns))
	}
	kube := &corev1.Service{}
	kube.Name, kube.Namespace = "kubernetes", "default"
	kube.Spec.ClusterIP = "10.96.0.1"
	kube.Spec.Ports = []corev1.ServicePort{{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP}}
	api.Seed(kube)
}

// clusterNodes are Config.Nodes, or the default nodes, checked and with
// their podCIDRs allocated.
func clusterNodes(cfg Config) ([]*corev1.Node, error) {
	nodes := cfg.Nodes
	if len(nodes) == 0 {
		if cfg.Workers > MaxNodes {
			return nil, tooManyNodes(cfg.Workers) // before DefaultNodes builds them
		}
		nodes = DefaultNodes(max(cfg.Workers, 0), true)
	}
	if err := checkNodes(nodes); err != nil {
		return nil, err
	}
	cidr, mask := cfg.ClusterCIDR, cfg.NodeCIDRMaskSize
	if cidr == "" {
		cidr = ClusterCIDRFor(len(nodes))
	}
	if mask == 0 {
		mask = DefaultNodeCIDRMaskSize
	}
	if err := AllocateNodeCIDRs(nodes, cidr, mask); err != nil {
		return nil, err
	}
	return nodes, nil
}

func firstWorker(nodes []*corev1.Node) int {
	for i, n := range nodes {
		if len(n.Spec.Taints) == 0 {
			return i
		}
	}
	return 0
}

// progress counts pods Running for Config.Progress.
func (c *Cluster) progress() {
	c.cfg.Progress(c.eng.Now(), func() (running, pods int) {
		c.api.EachPod(func(p *corev1.Pod) {
			pods++
			if p.Status.Phase == corev1.PodRunning {
				running++
			}
		})
		return running, pods
	})
}

func (c *Cluster) podReady() { c.readyAt = c.eng.Now() }

// Writes is the API server's log of write requests (with Config.LogWrites).
func (c *Cluster) Writes() []apiserver.Write { return c.api.Writes }

// Objects lists the stored objects of a resource (plural, e.g. "pods").
func (c *Cluster) Objects(plural string) []runtime.Object { return c.api.List(plural) }

// Nodes returns the cluster's nodes.
func (c *Cluster) Nodes() []*corev1.Node { return c.nodes }

// Engine exposes the engine (for tests and later scenarios).
func (c *Cluster) Engine() *engine.Engine { return c.eng }

// Run drives the cluster until it settles and returns the trace.
func (c *Cluster) Run(command string) *trace.Trace {
	c.eng.Run(c.cfg.Deadline)
	tr := &trace.Trace{Command: command, Steps: c.rec.Steps, Failed: c.failed, State: c.state,
		Latencies: &trace.Latencies{Request: apiserver.RequestLatency, Commit: apiserver.StoreLatency, Watch: apiserver.WatchLatency}}
	s := &tr.Summary
	s.Events = c.eng.Processed() - c.eventsBefore
	s.End = c.eng.Now()
	s.StepsDropped = c.rec.Dropped
	s.Requests = c.api.Requests
	s.WatchEvents = c.api.WatchEvents
	s.FirstRevision, s.LastRevision = c.api.FirstRevision(), c.api.Revision()
	s.Unmodeled = c.unmod
	for _, p := range c.api.Pods() {
		s.Pods++
		if controller.PodReady(p) {
			s.ReadyPods++
		}
		if p.Spec.NodeName == "" {
			for _, cond := range p.Status.Conditions {
				if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse {
					s.PendingPods = append(s.PendingPods, trace.PendingPod{Name: p.Namespace + "/" + p.Name, Message: cond.Message})
				}
			}
		}
	}
	sort.Slice(s.PendingPods, func(i, j int) bool { return s.PendingPods[i].Name < s.PendingPods[j].Name })
	s.AllReady = s.Pods > 0 && s.ReadyPods == s.Pods
	s.ReadyAt = c.readyAt
	if len(c.nodes) > proxySample || c.cfg.ScaleReport {
		s.Scale = c.scale(s.Pods)
	}
	return tr
}

// Services returns the Services the run stored (bootstrap's `kubernetes`
// Service left out), each with its EndpointSlices, in namespace/name order.
func (c *Cluster) Services() []ServiceState {
	slices := map[string][]*discoveryv1.EndpointSlice{}
	for _, o := range c.api.List("endpointslices") {
		sl := o.(*discoveryv1.EndpointSlice)
		k := sl.Namespace + "/" + sl.Labels[discoveryv1.LabelServiceName]
		slices[k] = append(slices[k], sl)
	}
	var out []ServiceState
	for _, o := range c.api.List("services") {
		svc := o.(*corev1.Service)
		if svc.Namespace == "default" && svc.Name == "kubernetes" {
			continue
		}
		out = append(out, ServiceState{Service: svc, Slices: slices[svc.Namespace+"/"+svc.Name]})
	}
	return out
}

// ServiceState is a Service and its EndpointSlices at the end of a run.
type ServiceState struct {
	Service *corev1.Service
	Slices  []*discoveryv1.EndpointSlice
}

// scale gathers the summary's scale section.
func (c *Cluster) scale(pods int) *trace.Scale {
	sc := &trace.Scale{Nodes: len(c.nodes), Pods: pods, WatchEvents: c.api.WatchEventsBy(),
		BytesEncoded: c.api.BytesEncoded, BytesSent: c.api.BytesSent,
		Scheduled: c.sched.Scheduled, FirstBind: c.sched.FirstBind, LastBind: c.sched.LastBind,
		SliceWrites: c.slices.Writes, BatchPeriod: c.cfg.EndpointUpdatesBatchPeriod, Slices: len(c.api.List("endpointslices")), MaxEndpointsPerSlice: controller.MaxEndpointsPerSlice,
		ProxiesSimulated: min(len(c.nodes), proxySample), ProxiesCounted: max(0, len(c.nodes)-proxySample),
		StepLimit: c.cfg.StepLimit, StepsKept: len(c.rec.Steps), StepsCounted: c.rec.Dropped,
		EventsCreated: c.api.EventsCreated, EventsPatched: c.api.EventsPatched, EventsDropped: c.api.EventsDropped}
	if c.proxy != nil {
		sc.ProxySyncs, sc.ProxyEndpointsWritten, sc.ProxyLargestSync = c.proxy.Syncs, c.proxy.SyncedEndpoints, c.proxy.LargestSync
	}
	return sc
}
