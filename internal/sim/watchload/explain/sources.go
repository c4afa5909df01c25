package explain

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// sourceOf says where each sentence of `trace watch` that states an
// upstream fact comes from (package provenance); the model's own
// assumptions and results name the package that computes them.
func sourceOf() map[string]provenance.Source {
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	reflector := "staging/src/k8s.io/client-go/tools/cache/reflector.go (ListAndWatch, watchList)"
	features := "staging/src/k8s.io/client-go/features/known_features.go (WatchListClient)"
	cacher := "staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go"
	limiter := "staging/src/k8s.io/client-go/rest/config.go (DefaultQPS 5, DefaultBurst 10)"
	model := "kubernetes/kubernetes " + reflector
	return map[string]provenance.Source{
		"intro":                 k(reflector, "staging/src/k8s.io/apimachinery/pkg/util/wait/backoff.go (Until)"),
		"designs.poll":          k("staging/src/k8s.io/apimachinery/pkg/util/wait/backoff.go (JitterUntil: the period starts after the work)", "staging/src/k8s.io/apiserver/pkg/storage/cacher/delegator.go (a List without resourceVersion is a consistent read)"),
		"designs.informer":      k(reflector, cacher, "cmd/kube-controller-manager/app/options/options.go (MinResyncPeriod 12 h)"),
		"designs.streaming":     k(reflector, features, cacher+" (sendInitialEvents, initial-events-end bookmark)", "KEP-3157"),
		"designs.both":          k(limiter),
		"sizes.how":             k("staging/src/k8s.io/api/core/v1/types.go (the objects encoded)", "pkg/kubelet/kubelet_node_status.go"),
		"sizes.serve":           provenance.Of("this model", "k8sexplain internal/sim/watchload (ServeRate, an assumption)"),
		"run.read":              k(reflector, "staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go (one encoding per event, shared by watchers)"),
		"run.events2":           k("pkg/kubelet/apis/config/v1beta1/defaults.go (nodeStatusReportFrequency 5 min)"),
		"change.poll":           provenance.Of("this model", "k8sexplain internal/sim/watchload (loop timing)").Plus(k("staging/src/k8s.io/apimachinery/pkg/util/wait/backoff.go (Until)")),
		"change.poll.throttled": k(limiter, "staging/src/k8s.io/client-go/util/flowcontrol/throttle.go"),
		"change.informer":       k(cacher, "staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go"),
		"throttle.what":         k(limiter, "staging/src/k8s.io/client-go/util/flowcontrol/throttle.go"),
		"throttle.no":           k(limiter),
		"throttle.yes":          k(limiter, "staging/src/k8s.io/client-go/util/flowcontrol/throttle.go"),
		"throttle.cap":          k(limiter, "pkg/controller/apis/config/v1alpha1/defaults.go (--kube-api-qps 20, --kube-api-burst 30)"),
		"throttle.informer":     k(reflector+" (watch timeout 5–10 min, re-opened without a LIST)", features),
		"memory.model":          provenance.Of("this model", "k8sexplain internal/sim/watchload (bytes held = response × LISTs in flight, an assumption)"),
		"memory.poll":           provenance.Of("this model", "k8sexplain internal/sim/watchload"),
		"memory.informer":       k(reflector, features),
		"memory.streamed":       k(reflector, features, cacher+" (sendInitialEvents: initial events from the watch cache)", "KEP-3157").Plus(provenance.Of("this model", "k8sexplain internal/sim/watchload (streamList: one event held at a time)")),
		"memory.streaming":      k("staging/src/k8s.io/apiserver/pkg/features/kube_features.go (StreamingCollectionEncodingToJSON, …ToProtobuf)", "staging/src/k8s.io/client-go/informers/factory.go (SharedInformerFactory)", features, "KEP-3157"),
		"protect.cache":         k(cacher, "staging/src/k8s.io/apiserver/pkg/storage/cacher/delegator.go"),
		"protect.consistent":    k("staging/src/k8s.io/apiserver/pkg/features/kube_features.go (ConsistentListFromCache)", "staging/src/k8s.io/apiserver/pkg/storage/cacher/delegator.go", "KEP-2340"),
		"protect.bookmarks":     k(cacher+" (defaultBookmarkFrequency)", reflector),
		"protect.gone":          k(reflector+" (isExpiredError: relist)", "staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (too old resource version)"),
		"protect.apf":           k("staging/src/k8s.io/apiserver/pkg/util/flowcontrol/apf_filter.go", "staging/src/k8s.io/apiserver/pkg/util/flowcontrol/request/list_work_estimator.go"),
		"sources.qps":           k(limiter, "pkg/controller/apis/config/v1alpha1/defaults.go"),
		"sources.reflector":     k(reflector, features),
		"sources.cacher":        k(cacher + " (defaultBookmarkFrequency)"),
		"sources.kubelet":       k("pkg/kubelet/apis/config/v1beta1/defaults.go (nodeStatusReportFrequency)"),
		"sources.assumed":       provenance.Of("this model", "k8sexplain internal/sim/watchload (ServeRate, the simulator's latencies)"),
		"sources.left":          provenance.Of("this model", "k8sexplain internal/sim/watchload (package doc: what it leaves out)", model),
	}
}

// explanations are the English texts that state something (a sentence or
// a question, eight words at least); labels, units and headings are not.
func explanations() map[string]string {
	out := map[string]string{}
	for k, v := range en() {
		v = strings.TrimSpace(v)
		if (strings.HasSuffix(v, ".") || strings.HasSuffix(v, "?")) && len(strings.Fields(v)) >= 8 {
			out[k] = v
		}
	}
	return out
}

// Provenance is the trace watch catalogue's explanations and their
// sources, for docs/PROVENANCE.md.
func Provenance() provenance.Catalogue {
	return provenance.Catalogue{Name: "trace watch: the report's sentences", Package: "internal/sim/watchload/explain",
		Texts: explanations(), Sources: sourceOf()}
}
