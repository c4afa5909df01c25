// Package watchload models the load two controller designs put on the API
// server: controllers that LIST pods and nodes in a loop, and controllers
// built on client-go informers, which LIST once and then WATCH — or, as
// v1.37 does by default, stream the initial state over the watch.
//
// What it models, over a virtual run on internal/sim/engine:
//
//   - Object sizes are measured, not guessed: the pods and nodes are built as
//     k8s.io/api objects the way the simulator builds them (the bundled
//     example's Deployment, admission's service-account volume and
//     tolerations, the kubelet's status) and encoded with encoding/json.
//   - Polling: each controller LISTs pods, then nodes, then sleeps the poll
//     interval (wait.Until's sliding period), forever; the loops are already
//     running when the run starts, each at a random point of its loop.
//   - Informers: each controller runs a Reflector per resource: LIST with
//     resourceVersion=0 (served from the watch cache), then WATCH from the
//     list's resourceVersion with allowWatchBookmarks, re-opened when the
//     server's timeout (5 to 10 minutes) ends it; resync is in memory. The
//     informers start in the first second, so their start-up is in the run.
//   - The same informers on v1.37's default, the streaming list
//     (WatchListClient, on by default since v1.35): each Reflector's first
//     request is one WATCH with sendInitialEvents=true that carries every
//     object as an ADDED event (encoded for that watcher), then the BOOKMARK
//     annotated k8s.io/initial-events-end, and goes on as the watch; the
//     server holds one event at a time, never a list.
//   - Every request passes a client-side token bucket: client-go's defaults
//     for a plain rest.Config, QPS 5 and burst 10, one bucket per controller.
//   - A LIST is served in RequestLatency plus its size at ServeRate; while it
//     is served, the API server holds the whole encoded response.
//   - Changes: every node's kubelet re-reports its status every 5 minutes
//     (nodeStatusReportFrequency), and one pod changes at ChangeAt. Each
//     design notices that pod change at a time the run measures.
//
// What it leaves out: CPU contention and API Priority and Fairness queuing
// (each request is served as if alone), protobuf, gzip, managedFields,
// pagination, shared informer
// factories, 410 Gone relists (the watch never falls behind in this run),
// and the requests kubelets and other clients make (the same in both designs).
// The package returns structured results; the words are in package explain.
package watchload
