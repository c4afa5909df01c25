// Package scheduler is the pure core of the simulated kube-scheduler: given a
// pod and the scheduler's view of the cluster (a Cluster of NodeInfos), it
// runs one scheduling cycle the way pkg/scheduler/schedule_one.go does and
// returns what happened, node by node and plugin by plugin.
//
// What it models (recent upstream, v1.36+, pkg/scheduler/framework/...):
//
//   - The framework's shape: every plugin is a type with Name() and the
//     extension points it implements (PreFilter, Filter, PreScore, Score,
//     NormalizeScore); a *Status (nil means success) carries the code and the
//     reason a node was rejected, in upstream's words. Each plugin keeps its
//     per-cycle state in the CycleState under its own StateKey (Write/Read),
//     as upstream's framework.CycleState.
//   - A registry (InTree: plugin name → factory taking the plugin's args)
//     and profiles built from it (Registry.NewProfile) the way kube-scheduler
//     merges a KubeSchedulerProfile with the defaults and expands multiPoint
//     into the extension points; DefaultProfile is v1.37's default profile.
//     Package schedconfig reads a KubeSchedulerConfiguration file into a
//     profile. Adding a plugin: one file (its type, extension points and
//     newX factory) and one line in InTree.
//   - Filter plugins, in the default profile's order: NodeName,
//     NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector +
//     required terms), NodePorts, NodeResourcesFit, PodTopologySpread (the
//     pod's DoNotSchedule constraints), InterPodAffinity (required affinity
//     and anti-affinity, the pod's and the existing pods'). A node's
//     evaluation stops at the first plugin that rejects it, as upstream's
//     RunFilterPlugins does.
//   - Score plugins with the default weights (default_plugins.go):
//     TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1 (LeastAllocated
//     by default; MostAllocated and RequestedToCapacityRatio by args),
//     PodTopologySpread 2 (system default constraints, or the pod's own
//     ScheduleAnyway constraints), InterPodAffinity 2 (preferred terms both
//     ways, hardPodAffinityWeight 1), NodeResourcesBalancedAllocation 1,
//     ImageLocality 1; PreScore Skip rules; NormalizeScore.
//   - numFeasibleNodesToFind (adaptive percentageOfNodesToScore), the
//     nextStartNodeIndex rotation, node order interleaved by zone
//     (backend/cache/node_tree.go), "one feasible node: no scoring", and the
//     random tie-break among top scores by reservoir sampling from the
//     caller's seeded RNG.
//   - The FailedScheduling message exactly as FitError.Error builds it,
//     including the PostFilter sentences of DynamicResources and
//     DefaultPreemption.
//   - DefaultPreemption's victim search and node choice (preemption.go,
//     Preempt): lower-priority pods only, reprieve with PodDisruptionBudget
//     violators first, and pickOneNodeForPreemption's criteria; the caller
//     evicts the victims and writes nominatedNodeName.
//
// What it leaves out: nominated pods counted on their node by later cycles,
// preemption's candidate sampling (every node is a candidate), volumes (VolumeBinding, VolumeZone,
// VolumeRestrictions, NodeVolumeLimits), DynamicResources beyond its
// PostFilter sentence, PodTopologySpread's nodeTaintsPolicy, pod affinity's
// matchLabelKeys (the API server merges them into the selector) and
// namespaceSelectors beyond the kubernetes.io/metadata.name label,
// pod-level resources, in-place resize, nominated nodes, the scheduling
// queue and its backoff, extenders, Reserve/Permit/Bind (the simulator binds
// through the API server itself).
//
// The package does no I/O, keeps no clock and starts no goroutines. The
// simulator drives it like this (see ExampleScheduler_Schedule):
//
//	c := scheduler.NewCluster()     // the scheduler's cache
//	c.AddNode(node)                 // node watch: AddNode / UpdateNode / RemoveNode
//	c.AddPod(pod)                   // bound pods: AddPod / UpdatePod / RemovePod
//	s := scheduler.New()            // default profile, upstream weights
//	sel := scheduler.DefaultSpreadSelector(pod, services, rs.Spec.Selector)
//	res := s.Schedule(pod, c, rng, sel) // rng: the engine's *rand.Rand
//	if res.Node == "" { /* FailedScheduling: res.Message */ }
//	else { pod.Spec.NodeName = res.Node; c.AddPod(pod) /* assume, then bind */ }
//
// Only pods with an empty spec.nodeName belong to the scheduler. Nodes need
// allocatable cpu, memory and pods, and the kubernetes.io/hostname label
// (the kubelet sets it) for hostname spreading to score. Result slices are
// reused by the next Schedule call (Result.Clone keeps them); with
// Scheduler.Summary set, a cycle skips the per-node detail that a trace of a
// large cluster would not print, and decides the same.
//
// Work per pod is O(nodes evaluated) with O(1) per node for the default
// profile: NodeInfo caches requested resources, host ports and images; the
// Cluster indexes live pods per controller per node and per zone, image
// holders by node slot, and keeps the node order. A pod's own topology
// spread constraints, default spreading for a pod without a controller, and
// a pod's own inter-pod (anti-)affinity terms count pods by label selector,
// which walks the pods of the nodes; existing pods' affinity terms are
// parsed once and indexed.
package scheduler
