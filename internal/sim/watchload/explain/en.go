package explain

// en is the English catalogue.
func en() map[string]string {
	return map[string]string{
		"title":    "Watch versus LIST in a loop: {1}, {2}, {3}, {4} of virtual time",
		"modelled": "Modelled on Kubernetes {1}.",
		"intro": "A classic gotcha, played on the simulator's clock: the same controllers, once written as a loop that LISTs " +
			"everything and sleeps, once on client-go informers that fetch the current state once and then WATCH. What does each cost the API server, " +
			"and how soon does each notice that a pod changed?",

		"n.controller": "{1:# controller|# controllers}",
		"n.pod":        "{1:# pod|# pods}",
		"n.node":       "{1:# node|# nodes}",
		"n.watch":      "{1:# watch|# watches}",
		"n.time":       "{1:# time|# times}",
		"n.time.frac":  "{1} times",

		"unit.B":      "B",
		"unit.kB":     "kB",
		"unit.MB":     "MB",
		"unit.GB":     "GB",
		"unit.perSec": "/s",
		"unit.min":    "min",
		"unit.ms":     "ms",
		"unit.s":      "s",

		"sizes.title": "What the API server sends",
		"sizes.how": "Measured, not estimated: the pods are the bundled example's web Deployment as the simulator creates them " +
			"(ReplicaSet owner, the service-account volume and tolerations admission adds, a Running status with container " +
			"statuses), the nodes are the simulator's workers with the status a kubelet reports; each object is a k8s.io/api " +
			"type encoded with encoding/json. managedFields are left out, so a real server's objects are larger still. " +
			"kB, MB and GB are powers of 1000.",
		"sizes.object":     "Object",
		"sizes.json":       "JSON size",
		"sizes.pod":        "one pod (as a list item)",
		"sizes.node":       "one node (as a list item)",
		"sizes.podlist":    "LIST of {1} pods",
		"sizes.nodelist":   "LIST of {1} nodes",
		"sizes.podevent":   "watch event: a pod MODIFIED",
		"sizes.nodeevent":  "watch event: a node MODIFIED",
		"sizes.bookmark":   "watch event: a BOOKMARK",
		"sizes.podstream":  "streaming list of {1} pods (ADDED events, end bookmark)",
		"sizes.nodestream": "streaming list of {1} nodes",
		"sizes.serve": "Assumed: one response is encoded and sent at {1}, as if it had a core to itself. " +
			"A LIST of {2} pods then takes {3} to serve, a LIST of the nodes {4}.",

		"designs.title": "The three designs",
		"designs.poll": "LIST in a loop: each controller LISTs all pods, then all nodes, then sleeps {1} (wait.Until: the " +
			"interval starts when the work ends). A plain List call sends no resourceVersion, so each is a consistent read.",
		"designs.informer": "Informer on LIST then WATCH: each controller's Reflector LISTs once with resourceVersion=0, which the API server " +
			"answers from its watch cache, then WATCHes from that list's resourceVersion with allowWatchBookmarks=true, " +
			"and keeps its own cache up to date from the events. Its resync (every 12 to 24 hours in kube-controller-manager) " +
			"replays that local cache and sends nothing to the API server. This is client-go's fallback, and was the default " +
			"before v1.35; the run plays it as the column \"informers\".",
		"designs.streaming": "Informer on a streaming list, what v1.37 does by default: client-go's WatchListClient (on by default since " +
			"v1.35) replaces the first LIST with one WATCH with sendInitialEvents=true, resourceVersionMatch=NotOlderThan and " +
			"allowWatchBookmarks=true, which the watch cache answers with one ADDED event per existing object and then a " +
			"BOOKMARK annotated k8s.io/initial-events-end; the Reflector goes on with the same watch. The run plays it too, " +
			"as the column \"streaming list\": the same objects cross the wire, with one request fewer per resource, and " +
			"the API server never builds a whole list response.",
		"designs.both": "In all three: {1}, each with its own client and client-go's default limiter (QPS 5, burst 10). The loops " +
			"have been running for a while, each at a random point of its loop; the informers start at random moments in " +
			"the first second, as after a rollout, so their start-up is in the run too. The run is seeded: the same flags " +
			"print the same numbers.",

		"design.poll":          "LIST in a loop",
		"design.informer":      "informers",
		"design.streaming":     "streaming list (v1.37)",
		"run.initial":          "… of them initial ADDED events (streaming list)",
		"change.how.streaming": "a MODIFIED event",
		"memory.streamed": "With the streaming list, v1.37's default, the same start-up holds {1} at its peak ({2} streams " +
			"at once, each holding one event at a time): the watch cache writes the initial state event by event and " +
			"never builds a list response. It serialises about as much as the LISTs did ({3} against {4}): the " +
			"initial events are encoded for each watcher, where a LIST is encoded for each client too.",

		"run.title":       "What {1} costs the API server",
		"run.requests":    "requests",
		"run.rps":         "requests per second (mean)",
		"run.lists":       "LIST pods / LIST nodes",
		"run.watches":     "WATCH",
		"run.events":      "watch events delivered",
		"run.encoded":     "bytes the API server serialised",
		"run.encodedRate": "… per second",
		"run.sent":        "bytes sent",
		"run.throttled":   "requests delayed by client-side throttling",
		"run.peak":        "peak: LISTs (or streaming lists) in flight / response bytes held",
		"run.mean":        "response bytes held, time average",
		"run.read": "The informers LISTed pods {1} in all, once each, and would not LIST again however long the run " +
			"(short of a restart or a 410 Gone); the loops LISTed them {2} and keep going. Every LIST is serialised " +
			"anew, while a watch event is serialised once and the same bytes go to every watcher, so the loops made the " +
			"API server serialise {3} as much.",
		"run.events2": "The informers' watch events are the kubelets re-posting node status every 5 minutes ({1}: " +
			"about {2} a minute, each sent to every node watch) and the one pod change below.",
		"timeline.title":      "Bytes sent, every {1}",
		"timeline.span":       "{1}–{2} s",
		"change.title":        "A pod changes at {1}",
		"change.first":        "first",
		"change.mean":         "mean",
		"change.last":         "last",
		"change.how":          "how it learns",
		"change.how.poll":     "its next pod LIST",
		"change.how.informer": "a MODIFIED event",
		"change.poll": "A loop lasts the interval plus two LISTs: {1} + {2} + {3} = {4}. The change lands at a random point of it, " +
			"so the next pod LIST starts on average half a loop later ({5}, about half the poll interval) and its answer " +
			"arrives one LIST time after that: {6} expected, {7} measured. A longer interval lightens the load and makes every " +
			"controller slower to react in the same proportion; a shorter one does the opposite.",
		"change.poll.throttled": "Without throttling the loops would notice in {1} on average; the limiter stretched their " +
			"loops, and they took {2}.",
		"change.informer": "An informer learns it when the watch cache fans the event out: {1} in this simulator (tens of " +
			"milliseconds on a busy real cluster), whatever the poll interval. One event of {2}, serialised once, went " +
			"out on {3}.",

		"throttle.title": "Client-side throttling",
		"throttle.what": "client-go gives a rest.Config whose QPS and Burst are left at zero a token bucket of {1} requests " +
			"per second with bursts of {2} (rest.DefaultQPS, rest.DefaultBurst); a request that finds it empty waits on " +
			"the client.",
		"throttle.no": "Here a loop takes {1} (the interval plus its two LISTs), so a controller sends {2} requests per " +
			"second, under the {3} allowed: the limiter never made a controller wait.",
		"throttle.yes": "Throttled: {1} of {2} requests waited for a token, {3} in all, {4} each on average. The limiter, " +
			"not the poll interval, set the pace: {5} requests per second per controller (5 a second, plus the burst of 10 " +
			"spent at the start), whatever an interval of {6} asks for.",
		"throttle.cap": "The limiter protects the server from one client, not from many: {1} controllers may together send " +
			"{2} requests per second, and a LIST of {3} pods costs the API server the same whether its client waited or not. " +
			"kube-controller-manager raises its own clients to --kube-api-qps {4} and --kube-api-burst {5}.",
		"throttle.informer": "An informer's four requests (two LISTs, two WATCHes; two WATCHes alone with the streaming list) fit in the burst of {1}; after that it " +
			"sends nothing until a watch times out, 5 to 10 minutes later, and is re-opened without a LIST.",

		"memory.title": "Memory pressure on the API server",
		"memory.model": "The model, stated plainly: while the API server serves a LIST it holds the whole encoded response, " +
			"so the memory in flight is the bytes of each LIST response times the LISTs being served at that moment. " +
			"Watch events are small and shared by all watchers; they are not counted.",
		"memory.poll": "The loops keep {1} in flight on average, all the time (peak {2}, with {3} LISTs at once), and " +
			"allocate {4} of response bytes that the garbage collector must reclaim.",
		"memory.informer": "On the LIST+WATCH path the informers' peak comes at start-up ({1}, {2} LISTs at once), because every " +
			"controller lists when it starts; after that they hold nothing, and their average over the run is {3}. A " +
			"restart of every controller, or of the API server, brings the spike back.",
		"memory.streaming": "Since Kubernetes 1.33 the API server encodes list items one by one as it writes them " +
			"(StreamingCollectionEncodingToJSON and …ToProtobuf, GA in 1.34), which cuts the bytes held, not the bytes " +
			"serialised: the CPU each LIST costs stays. The start-up spike is why a process shares one informer per " +
			"resource (SharedInformerFactory), and why client-go now streams the initial state over a watch instead of a " +
			"LIST (WatchList, KEP-3157; the client side on by default since v1.35).",

		"protect.title": "What protects the API server",
		"protect.cache": "The watch cache: the API server keeps each resource in memory, fed by one etcd watch, and serves " +
			"WATCH from a resourceVersion, LIST with resourceVersion=0 (any version, possibly a little stale) and LIST with a " +
			"resourceVersion and resourceVersionMatch=NotOlderThan from it.",
		"protect.consistent": "Consistent reads from the cache: a LIST with no resourceVersion, like the loop's, used to be " +
			"a quorum read of all {1} pods from etcd, every time. Since 1.31 (ConsistentListFromCache, beta; GA in 1.34) " +
			"the API server only asks etcd for its current revision and serves the LIST from the cache once the cache " +
			"has caught up with it.",
		"protect.bookmarks": "Watch bookmarks: about once a minute, and before a watch times out, the server sends a " +
			"BOOKMARK ({1} here) carrying the latest resourceVersion, so a Reflector re-opens its watch from a recent " +
			"version instead of relisting.",
		"protect.gone": "410 Gone: a watch resumed from a resourceVersion older than the watch cache keeps gets " +
			"\"too old resource version\"; only then does the Reflector LIST again. Apart from restarts it is the only " +
			"relist in an informer's life; it does not happen in this run.",
		"protect.apf": "API Priority and Fairness: the server's own limiter sorts requests into priority levels, queues " +
			"or rejects with 429 what exceeds a level's share, and charges a LIST by the number of objects it may return, " +
			"so a herd of LISTs cannot starve everyone else. Not modelled: each request here is served as if alone.",

		"sources.title": "The model and its sources",
		"sources.qps": "client-go rest/config.go: DefaultQPS 5, DefaultBurst 10; kube-controller-manager: --kube-api-qps 20, " +
			"--kube-api-burst 30 (pkg/controller/apis/config/v1alpha1/defaults.go).",
		"sources.reflector": "client-go tools/cache/reflector.go: the first LIST asks for resourceVersion \"0\"; the WATCH " +
			"starts from the last resourceVersion with allowWatchBookmarks; its timeout is drawn from 5 to 10 minutes; " +
			"an expired resourceVersion (410) leads to a new LIST. With WatchListClient (client-go features/known_features.go, " +
			"on since v1.35) the first request is instead a WATCH with sendInitialEvents=true, and LIST+WATCH its fallback.",
		"sources.cacher":  "kube-apiserver storage/cacher: a bookmark about every minute (defaultBookmarkFrequency).",
		"sources.kubelet": "kubelet: nodeStatusReportFrequency 5 minutes, so each node's status is re-posted every 5 minutes.",
		"sources.assumed": "Assumed: a LIST is served at {1} plus the simulator's 1 ms request latency; a watch event reaches " +
			"its watcher {2} after the write commits (the simulator's watch latency).",
		"sources.left": "Left out: CPU contention and queuing in API Priority and Fairness, protobuf (which " +
			"kube-controller-manager speaks, smaller than JSON), gzip, managedFields, pagination, the client's time to " +
			"decode a LIST, shared informers, and the requests kubelets make (the same under both designs).",

		"seq.loop":       "controller: LIST in a loop",
		"seq.api":        "kube-apiserver (watch cache)",
		"seq.informer":   "controller: informer",
		"seq.start":      "start-up",
		"seq.podlist":    "PodList: {1} pods, {2}",
		"seq.nodelist":   "NodeList: {1} nodes, {2}",
		"seq.again":      "sleep {1}, then the same again: {2} pod LISTs in {3}",
		"seq.podlist.rv": "PodList from the watch cache: {1} pods, {2}, resourceVersion N",
		"seq.change":     "a pod changes at {1}",
		"seq.event":      "MODIFIED pod, {1}, after {2}",
		"seq.nextlist":   "next LIST /api/v1/pods",
		"seq.seen":       "PodList with the change: {1} after it on average",
		"seq.resync":     "resync every 12–24 h: from its own cache, no request",
	}
}
