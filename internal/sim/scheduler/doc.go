// Package scheduler is the pure core of the simulated kube-scheduler: given a
// pod and the scheduler's view of the cluster (a Cluster of NodeInfos), it
// runs one scheduling cycle the way pkg/scheduler/schedule_one.go does and
// returns what happened, node by node and plugin by plugin.
//
// What it models (upstream v1.37, pkg/scheduler/framework/plugins/...):
//
//   - The framework's shape: every plugin is a type with Name() and the
//     extension points it implements (PreFilter, Filter, PreScore, Score,
//     NormalizeScore); a *Status (nil means success) carries the code and the
//     reason a node was rejected, in upstream's words.
//   - Filter plugins, in the default profile's order: NodeUnschedulable,
//     NodeName, TaintToleration, NodeAffinity (nodeSelector + required terms),
//     NodePorts, NodeResourcesFit, PodTopologySpread (the pod's DoNotSchedule
//     constraints). A node's evaluation stops at the first plugin that
//     rejects it, as upstream's RunFilterPlugins does.
//   - Score plugins with the default weights (default_plugins.go):
//     TaintToleration 3, NodeAffinity 2, NodeResourcesFit (LeastAllocated) 1,
//     PodTopologySpread 2 (system default constraints, or the pod's own
//     ScheduleAnyway constraints), NodeResourcesBalancedAllocation 1,
//     ImageLocality 1; PreScore Skip rules; NormalizeScore.
//   - numFeasibleNodesToFind (adaptive percentageOfNodesToScore), the
//     nextStartNodeIndex rotation, node order interleaved by zone
//     (backend/cache/node_tree.go), "one feasible node: no scoring", and the
//     random tie-break among top scores by reservoir sampling from the
//     caller's seeded RNG.
//   - The FailedScheduling message exactly as FitError.Error builds it,
//     including the PostFilter sentences of DynamicResources and
//     DefaultPreemption.
//
// What it leaves out: preemption itself (the simulator has no priorities, so
// DefaultPreemption can only ever report that it found no victims or that
// preemption cannot help), volumes (VolumeBinding, VolumeZone,
// VolumeRestrictions, NodeVolumeLimits), DynamicResources beyond its
// PostFilter sentence, InterPodAffinity, PodTopologySpread's minDomains
// beyond the minimum rule and its nodeTaintsPolicy, pod-level resources,
// in-place resize, nominated nodes, the scheduling queue and its backoff,
// extenders, Reserve/Permit/Bind (the simulator binds through the API server
// itself).
//
// The package does no I/O, keeps no clock and starts no goroutines; the
// simulator owns one Cluster, keeps it current from its watches (AddNode,
// AddPod, ...), and calls Scheduler.Schedule once per pending pod. Work per
// pod is O(nodes evaluated) with O(1) per node for the default profile:
// NodeInfo caches requested resources, host ports, images and per-owner pod
// counts, and the Cluster keeps per-owner pod counts per zone.
package scheduler
