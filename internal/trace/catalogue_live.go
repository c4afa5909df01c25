package trace

// The texts of a trace of a real cluster (trace apply --kubeconfig,
// package internal/live). Most of its steps are the simulator's own kinds
// (event, deployment.newrs, scheduler.bind, kubelet.running…); the kinds
// below say what only an observer of a real cluster can say. A kind that
// stands for something the simulated trace shows under another kind takes
// that kind's explanation (liveExplainedAs), so the two traces explain the
// same thing with the same words.

// liveExplainedAs maps a live kind to the simulated kind whose explanation
// it shows.
var liveExplainedAs = map[string]string{
	"live.applied":    "kubectl.created",
	"live.podcreated": "replicaset.diff",
	"live.podip":      "runtime.sandbox",
	"live.ready":      "kubelet.probe",
}

func liveEN() map[string]Entry {
	return map[string]Entry{
		"live.namespace": {"namespace {namespace} created for this run (generateName k8sexplain-); it is deleted at the end unless --keep",
			"k8sexplain writes into a namespace of its own so that nothing of yours is touched: every namespaced object of the manifests is applied there, and deleting the namespace at the end lets the namespace controller delete everything in it (pods get their grace period)."},
		"live.validate": {"{kind} {name} ({apiVersion}, {where}): parsed; every field is a known field of the type",
			"k8sexplain parses the file first and refuses an unknown or duplicated field before anything is sent; the API server checks the same again, since the apply goes with fieldValidation=Strict (kubectl's --validate=strict, server-side since v1.27)."},
		"live.namespacemap": {"Namespace {name} of the manifests is mapped onto {namespace}: its objects are applied there", ""},
		"live.apply": {"PATCH {path} ({kind}, server-side apply)",
			"Server-side apply: the object goes in one PATCH with Content-Type application/apply-patch+yaml and fieldManager=k8sexplain; the API server merges it with what is stored (nothing, the first time: the PATCH creates it) and records in metadata.managedFields who owns each field. No GET first and no last-applied-configuration annotation — those are client-side apply, what `kubectl apply` does without --server-side. Authentication, authorization, admission, validation and the etcd write then happen exactly as for a POST."},
		// kubectl's own words for a server-side apply, and its dry-run
		// suffix (k8s.io/kubectl pkg/cmd/apply/apply.go ToPrinter("serverside-applied"), v0.37).
		"live.applied": {"{ref} serverside-applied", ""},
		"live.dryrun": {"{ref} serverside-applied (server dry run): admitted, defaulted and validated, not stored",
			"dryRun=All runs the request through everything a real one passes — authentication, RBAC, mutating and validating admission (webhooks too, if they declare sideEffects None), defaulting and validation — and stops before etcd: the answer is the object as it would be stored, with no resourceVersion of its own."},
		"live.podcreated": {"pod {pod} created by ReplicaSet {rs} (generateName {rs}-): Pending, no node yet", ""},
		"live.podip":      {"pod {pod} on {node} has IP {ip}: its sandbox is up (pause container, CNI ADD)", ""},
		"live.ready":      {"{pod} Ready=True ({why})", ""},
		"live.waiting": {"{pod}: container {container} waiting — {reason}: {message}",
			"The kubelet says why a container does not run in status.containerStatuses[].state.waiting: ErrImagePull then ImagePullBackOff (the image cannot be pulled; retried with a back-off from 10 s doubling to 5 minutes), CrashLoopBackOff, CreateContainerConfigError (a missing ConfigMap or Secret). None of them resolves by waiting, so the trace stops here."},
		"live.condition": {"{pod}: condition {type}={status}{reason}", ""},
		"live.gone":      {"{object} deleted", ""},
	}
}

func liveRU() map[string]Entry {
	return map[string]Entry{
		"live.namespace": {"для этого запуска создан неймспейс {namespace} (generateName k8sexplain-); в конце он удаляется, если не задан --keep",
			"k8sexplain пишет в собственный неймспейс, чтобы не задеть ничего вашего: все объекты манифестов с неймспейсом применяются туда, а удаление неймспейса в конце поручает контроллеру неймспейсов удалить всё, что в нём есть (поды получают свой grace period)."},
		"live.validate": {"{kind} {name} ({apiVersion}, {where}): разобран; все поля известны типу",
			"k8sexplain сначала разбирает файл и отказывает на неизвестном или повторённом поле, ещё ничего не отправив; API-сервер проверяет то же самое ещё раз, потому что apply идёт с fieldValidation=Strict (--validate=strict у kubectl, на стороне сервера с v1.27)."},
		"live.namespacemap": {"Namespace {name} из манифестов отображается на {namespace}: его объекты применяются туда", ""},
		"live.apply": {"PATCH {path} ({kind}, server-side apply)",
			"Server-side apply: объект уходит одним PATCH с Content-Type application/apply-patch+yaml и fieldManager=k8sexplain; API-сервер сливает его с сохранённым (в первый раз сохранённого нет — PATCH создаёт объект) и записывает в metadata.managedFields, кто владеет каждым полем. Ни GET перед этим, ни аннотации last-applied-configuration — это client-side apply, то, что делает `kubectl apply` без --server-side. Аутентификация, авторизация, admission, валидация и запись в etcd идут так же, как для POST."},
		"live.applied": {"{ref} serverside-applied", ""},
		"live.dryrun": {"{ref} serverside-applied (server dry run): прошёл admission, дефолтинг и валидацию, не сохранён",
			"dryRun=All проводит запрос через всё, что проходит настоящий, — аутентификацию, RBAC, мутирующий и валидирующий admission (вебхуки тоже, если они объявляют sideEffects None), дефолтинг и валидацию — и останавливается перед etcd: ответ — объект в том виде, в каком он был бы сохранён, без собственного resourceVersion."},
		"live.podcreated": {"под {pod} создан ReplicaSet {rs} (generateName {rs}-): Pending, ноды пока нет", ""},
		"live.podip":      {"у пода {pod} на {node} IP {ip}: песочница поднята (pause-контейнер, CNI ADD)", ""},
		"live.ready":      {"{pod} Ready=True ({why})", ""},
		"live.waiting": {"{pod}: контейнер {container} ждёт — {reason}: {message}",
			"Почему контейнер не работает, kubelet пишет в status.containerStatuses[].state.waiting: ErrImagePull, затем ImagePullBackOff (образ не скачивается; повтор с back-off от 10 с, удваиваясь до 5 минут), CrashLoopBackOff, CreateContainerConfigError (нет ConfigMap или Secret). Ожиданием это не лечится, поэтому трасса здесь останавливается."},
		"live.condition": {"{pod}: условие {type}={status}{reason}", ""},
		"live.gone":      {"{object} удалён", ""},
	}
}

// withLiveExplanations gives each live kind of liveExplainedAs the
// explanation of its simulated kind.
func withLiveExplanations(live, sim map[string]Entry) map[string]Entry {
	for kind, as := range liveExplainedAs {
		e := live[kind]
		e.Explain = sim[as].Explain
		live[kind] = e
	}
	return live
}

// liveUIEN are the words of a cluster trace's header and of the side by
// side (--compare) of the cluster with the simulation (keys ui.live.*).
func liveUIEN() map[string]string {
	return map[string]string{
		"ui.live.cluster":     "Observed on the cluster {server} (context {context}, Kubernetes {version}), namespace {namespace}. Times are when each change reached k8sexplain's watch; a step's cluster_time field is the cluster's own timestamp.",
		"ui.live.dryrun":      "Server dry run on {server} (context {context}, Kubernetes {version}), namespace {namespace}: nothing was stored.",
		"ui.live.allReady":    "All {pods} pods Ready at {at} (since the apply).",
		"ui.live.notReady":    "{ready} of {pods} pods Ready when the trace ended at {at}.",
		"ui.live.revisions":   "resourceVersions seen",
		"ui.live.skew":        "the server is {version}, the simulator models {modelled}: facts that changed between them (defaults, event texts, feature gates) may differ.",
		"phrase.live.noprobe": "no readiness probe: Ready as soon as its containers run",
	}
}

func liveUIRU() map[string]string {
	return map[string]string{
		"ui.live.cluster":     "Наблюдалось на кластере {server} (контекст {context}, Kubernetes {version}), неймспейс {namespace}. Время — когда изменение дошло до watch k8sexplain; поле шага cluster_time — отметка времени самого кластера.",
		"ui.live.dryrun":      "Server dry run на {server} (контекст {context}, Kubernetes {version}), неймспейс {namespace}: ничего не сохранено.",
		"ui.live.allReady":    "Все {pods} подов Ready в {at} (от начала apply).",
		"ui.live.notReady":    "{ready} из {pods} подов Ready, когда трасса закончилась в {at}.",
		"ui.live.revisions":   "увиденные resourceVersion",
		"ui.live.skew":        "сервер — {version}, симулятор моделирует {modelled}: факты, изменившиеся между ними (дефолты, тексты событий, feature gates), могут отличаться.",
		"phrase.live.noprobe": "readiness-пробы нет: Ready, как только запущены контейнеры",
	}
}

// liveWordsEN are the words of the --compare table (word.live.*).
func liveWordsEN() map[string]string {
	return map[string]string{
		"word.live.compare":         "The cluster against the simulation (same manifests, the cluster's worker nodes)",
		"word.live.phase":           "phase",
		"word.live.step":            "step",
		"word.live.real":            "cluster",
		"word.live.sim":             "simulation",
		"word.live.note":            "note",
		"word.live.notes":           "Notes on the differences",
		"word.live.noteNo":          "",
		"word.live.same":            "same",
		"word.live.none":            "—",
		"word.live.firstAt":         "phase starts",
		"word.live.rsName":          "ReplicaSet name (pod-template-hash)",
		"word.live.nodes":           "pods per node",
		"word.live.readyAt":         "all pods Ready",
		"word.live.order":           "order of first steps",
		"word.live.version":         "Kubernetes version",
		"word.live.note.skew":       "another minor version than the simulator models: defaults, event messages and feature gates that changed between them may differ",
		"word.live.phase.1":         "1 kubectl",
		"word.live.phase.2":         "2 API server",
		"word.live.phase.3":         "3 etcd, 201",
		"word.live.phase.4":         "4 controllers",
		"word.live.phase.5":         "5 scheduler",
		"word.live.phase.6":         "6 kubelet",
		"word.live.phase.7":         "7 runtime",
		"word.live.phase.8":         "8 Ready, endpoints",
		"word.live.note.inside":     "inside a component: the API does not show it, only the simulator can",
		"word.live.note.simonly":    "the simulator does it; the cluster showed nothing of it in this namespace",
		"word.live.note.realonly":   "the cluster showed it; the simulator records it under another step or not at all",
		"word.live.note.podcreated": "the simulator shows pod creation as replicaset.diff and the SuccessfulCreate events",
		"word.live.note.count":      "counts differ: a real controller retries and writes status more often; the kubelet's events repeat per container",
		"word.live.note.hash":       "same: both hash the pod template as upstream's ComputeHash does (docs/FIDELITY.md)",
		"word.live.note.hashbug":    "DIFFERS: the hash must match upstream's — a bug in k8sexplain (or a server of another minor version); please report it",
		"word.live.note.latency":    "the simulator's fixed latencies (request 1 ms, etcd commit 2 ms, watch 1 ms) against the real network, etcd fsync and client-side rate limits",
		"word.live.note.pull":       "the simulator pulls at a modelled speed; a real node pulls from the network or has the image cached",
		"word.live.note.probe":      "readiness waits initialDelaySeconds and the probe period on both sides; the cluster's times also hold its watch delays",
	}
}

func liveWordsRU() map[string]string {
	return map[string]string{
		"word.live.compare":         "Кластер против симуляции (те же манифесты, рабочие ноды кластера)",
		"word.live.phase":           "фаза",
		"word.live.step":            "шаг",
		"word.live.real":            "кластер",
		"word.live.sim":             "симуляция",
		"word.live.note":            "примечание",
		"word.live.notes":           "Примечания к различиям",
		"word.live.noteNo":          "",
		"word.live.same":            "совпадает",
		"word.live.none":            "—",
		"word.live.firstAt":         "начало фазы",
		"word.live.rsName":          "имя ReplicaSet (pod-template-hash)",
		"word.live.nodes":           "подов на ноду",
		"word.live.readyAt":         "все поды Ready",
		"word.live.order":           "порядок первых шагов",
		"word.live.version":         "версия Kubernetes",
		"word.live.note.skew":       "другая минорная версия, чем моделирует симулятор: дефолты, тексты событий и feature gates, изменившиеся между ними, могут отличаться",
		"word.live.phase.1":         "1 kubectl",
		"word.live.phase.2":         "2 API-сервер",
		"word.live.phase.3":         "3 etcd, 201",
		"word.live.phase.4":         "4 контроллеры",
		"word.live.phase.5":         "5 планировщик",
		"word.live.phase.6":         "6 kubelet",
		"word.live.phase.7":         "7 runtime",
		"word.live.phase.8":         "8 Ready, эндпоинты",
		"word.live.note.inside":     "внутри компонента: API этого не показывает, показать может только симулятор",
		"word.live.note.simonly":    "симулятор это делает; кластер в этом неймспейсе ничего такого не показал",
		"word.live.note.realonly":   "кластер это показал; симулятор записывает это другим шагом или не записывает",
		"word.live.note.podcreated": "симулятор показывает создание подов шагом replicaset.diff и событиями SuccessfulCreate",
		"word.live.note.count":      "число отличается: настоящий контроллер повторяет запросы и чаще пишет status; события kubelet повторяются для каждого контейнера",
		"word.live.note.hash":       "совпадает: обе стороны хешируют шаблон пода, как ComputeHash в upstream (docs/FIDELITY.md)",
		"word.live.note.hashbug":    "ОТЛИЧАЕТСЯ: хеш обязан совпадать с upstream — это ошибка k8sexplain (или сервер другой минорной версии); пожалуйста, сообщите",
		"word.live.note.latency":    "фиксированные задержки симулятора (запрос 1 мс, коммит etcd 2 мс, watch 1 мс) против настоящей сети, fsync etcd и клиентских rate limit",
		"word.live.note.pull":       "симулятор скачивает образ с моделируемой скоростью; настоящая нода качает из сети или берёт образ из кеша",
		"word.live.note.probe":      "readiness ждёт initialDelaySeconds и период пробы с обеих сторон; во времени кластера есть ещё задержки его watch",
	}
}
