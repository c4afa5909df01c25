package trace

// The StatefulSet controller's texts (trace apply of a StatefulSet).

func statefulSetEN() map[string]Entry {
	return map[string]Entry{
		"statefulset.revision": {"StatefulSet {set}: the pod template is stored as ControllerRevision {revision}",
			"A StatefulSet has no ReplicaSets: it keeps its template history in ControllerRevision objects named <set>-<hash>, and labels each pod controller-revision-hash with the revision it was made from. status.currentRevision and updateRevision name them; a rolling update replaces pods whose label differs from updateRevision."},
		"statefulset.create": {"StatefulSet {set}: create {pod} (ordinal {ordinal}, podManagementPolicy {policy}) — its claims first, then the pod",
			"Pods get stable names <set>-<ordinal> and stable storage: for each volumeClaimTemplate the controller creates a PersistentVolumeClaim <template>-<set>-<ordinal> before the pod and points the pod's volume at it; the claim outlives the pod, so a re-created web-1 gets the same volume. The pod's hostname is its name and its subdomain the serviceName, which gives it the DNS name web-0.<service>.<namespace>.svc.cluster.local through the headless Service."},
		"statefulset.wait": {"StatefulSet {set}: OrderedReady — {next} waits until {pod} is Running and Ready",
			"With podManagementPolicy OrderedReady (the default) the controller walks the ordinals in order and stops at the first pod that is not Running and Ready: web-1 is not even created before web-0 is Ready, and scale-down removes the highest ordinal first, one at a time. Parallel creates and deletes them all at once (updates stay ordered)."},
	}
}

func statefulSetRU() map[string]Entry {
	return map[string]Entry{
		"statefulset.revision": {"StatefulSet {set}: шаблон пода сохранён как ControllerRevision {revision}",
			"У StatefulSet нет ReplicaSet'ов: историю шаблона он хранит в объектах ControllerRevision с именами <set>-<hash> и помечает каждый под меткой controller-revision-hash — ревизией, из которой он создан. status.currentRevision и updateRevision ссылаются на них; при rolling update заменяются поды, чья метка отличается от updateRevision."},
		"statefulset.create": {"StatefulSet {set}: создаёт {pod} (порядковый номер {ordinal}, podManagementPolicy {policy}) — сначала его claim'ы, потом под",
			"У подов постоянные имена <set>-<номер> и постоянное хранилище: для каждого volumeClaimTemplate контроллер до пода создаёт PersistentVolumeClaim <template>-<set>-<номер> и направляет на него том пода; claim переживает под, поэтому пересозданный web-1 получает тот же том. hostname пода — его имя, subdomain — serviceName, поэтому через headless Service у него есть DNS-имя web-0.<service>.<namespace>.svc.cluster.local."},
		"statefulset.wait": {"StatefulSet {set}: OrderedReady — {next} ждёт, пока {pod} не станет Running и Ready",
			"При podManagementPolicy OrderedReady (по умолчанию) контроллер идёт по номерам по порядку и останавливается на первом поде, который не Running и не Ready: web-1 даже не создаётся, пока web-0 не готов, а при уменьшении первым по одному удаляется под с наибольшим номером. Parallel создаёт и удаляет их все сразу (обновления всё равно идут по порядку)."},
	}
}
