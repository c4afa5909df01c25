package trace

// The StatefulSet controller's texts (trace apply of a StatefulSet).

func statefulSetEN() map[string]Entry {
	return map[string]Entry{
		"kubectl.partition": {"kubectl patch statefulset {set}: updateStrategy.rollingUpdate.partition = {partition}",
			"The partition splits a StatefulSet's rolling update: only pods with an ordinal ≥ partition move to the new revision; the ones below keep the old template even when they are re-created. It is how a canary or a staged rollout of a stateful application is done: update the highest ordinal first, check it, then lower the partition."},
		"kubectl.setimage.sts": {"kubectl set image statefulset/{set} {container}={image}: a new template, a new revision", ""},
		"statefulset.update": {"StatefulSet {set}: rolling update — delete {pod} (revision {from}, update revision {to}, partition {partition})",
			"A StatefulSet updates in reverse ordinal order, one pod at a time: it deletes the highest-numbered pod that is not of the update revision, re-creates it under the same name with the same claims from the new template, and waits until it is Running and Ready before the next one. There is no surge: the pod is down between the delete and the new one's readiness."},
		"statefulset.revision": {"StatefulSet {set}: the pod template is stored as ControllerRevision {revision}",
			"A StatefulSet has no ReplicaSets: it keeps its template history in ControllerRevision objects named <set>-<hash>, and labels each pod controller-revision-hash with the revision it was made from. status.currentRevision and updateRevision name them; a rolling update replaces pods whose label differs from updateRevision."},
		"statefulset.create": {"StatefulSet {set}: create {pod} (ordinal {ordinal}, podManagementPolicy {policy}) — its claims first, then the pod",
			"Pods get stable names <set>-<ordinal> and stable storage: for each volumeClaimTemplate the controller creates a PersistentVolumeClaim <template>-<set>-<ordinal> before the pod and points the pod's volume at it; the claim outlives the pod, so a re-created web-1 gets the same volume. The pod's hostname is its name and its subdomain the serviceName, which gives it the DNS name web-0.<service>.<namespace>.svc.cluster.local through the headless Service."},
		"statefulset.terminating": {"StatefulSet {set}: {pod} is Terminating — no replacement until the pod object is gone",
			"A StatefulSet pod's replacement has the same name and the same volumes, so the controller cannot create it while the old object exists: two web-1 running at once could both write to www-web-1. On a node that lost power nobody confirms the deletion, so the pod stays Terminating and the StatefulSet stays one short — until the node comes back, someone runs kubectl delete pod --force, the Node object is deleted, or the node.kubernetes.io/out-of-service taint lets PodGC remove it."},
		"statefulset.wait": {"StatefulSet {set}: OrderedReady — {next} waits until {pod} is Running and Ready",
			"With podManagementPolicy OrderedReady (the default) the controller walks the ordinals in order and stops at the first pod that is not Running and Ready: web-1 is not even created before web-0 is Ready, and scale-down removes the highest ordinal first, one at a time. Parallel creates and deletes them all at once (updates stay ordered)."},
	}
}

func statefulSetRU() map[string]Entry {
	return map[string]Entry{
		"kubectl.partition": {"kubectl patch statefulset {set}: updateStrategy.rollingUpdate.partition = {partition}",
			"partition делит rolling update StatefulSet: на новую ревизию переходят только поды с номером ≥ partition; поды ниже сохраняют старый шаблон, даже если их пересоздать. Так делают канареечный или поэтапный выкат stateful-приложения: обновить старший номер, проверить, затем уменьшить partition."},
		"kubectl.setimage.sts": {"kubectl set image statefulset/{set} {container}={image}: новый шаблон — новая ревизия", ""},
		"statefulset.update": {"StatefulSet {set}: rolling update — удаляет {pod} (ревизия {from}, ревизия обновления {to}, partition {partition})",
			"StatefulSet обновляется в обратном порядке номеров, по одному поду: удаляет под с наибольшим номером, который не на ревизии обновления, пересоздаёт его под тем же именем с теми же claim'ами из нового шаблона и ждёт, пока он станет Running и Ready, прежде чем взяться за следующий. Surge нет: между удалением и готовностью нового пода этого пода нет."},
		"statefulset.revision": {"StatefulSet {set}: шаблон пода сохранён как ControllerRevision {revision}",
			"У StatefulSet нет ReplicaSet'ов: историю шаблона он хранит в объектах ControllerRevision с именами <set>-<hash> и помечает каждый под меткой controller-revision-hash — ревизией, из которой он создан. status.currentRevision и updateRevision ссылаются на них; при rolling update заменяются поды, чья метка отличается от updateRevision."},
		"statefulset.create": {"StatefulSet {set}: создаёт {pod} (порядковый номер {ordinal}, podManagementPolicy {policy}) — сначала его claim'ы, потом под",
			"У подов постоянные имена <set>-<номер> и постоянное хранилище: для каждого volumeClaimTemplate контроллер до пода создаёт PersistentVolumeClaim <template>-<set>-<номер> и направляет на него том пода; claim переживает под, поэтому пересозданный web-1 получает тот же том. hostname пода — его имя, subdomain — serviceName, поэтому через headless Service у него есть DNS-имя web-0.<service>.<namespace>.svc.cluster.local."},
		"statefulset.terminating": {"StatefulSet {set}: {pod} в состоянии Terminating — замены не будет, пока объект пода существует",
			"Замена пода StatefulSet носит то же имя и получает те же тома, поэтому контроллер не может создать её, пока существует старый объект: два web-1 одновременно могли бы писать в www-web-1. На ноде без питания удаление подтвердить некому, под так и остаётся Terminating, а в StatefulSet не хватает одного пода — пока нода не вернётся, кто-то не выполнит kubectl delete pod --force, не удалят объект Node или taint node.kubernetes.io/out-of-service не позволит PodGC удалить под."},
		"statefulset.wait": {"StatefulSet {set}: OrderedReady — {next} ждёт, пока {pod} не станет Running и Ready",
			"При podManagementPolicy OrderedReady (по умолчанию) контроллер идёт по номерам по порядку и останавливается на первом поде, который не Running и не Ready: web-1 даже не создаётся, пока web-0 не готов, а при уменьшении первым по одному удаляется под с наибольшим номером. Parallel создаёт и удаляет их все сразу (обновления всё равно идут по порядку)."},
	}
}

func statefulSetWordsEN() map[string]string {
	return map[string]string{
		"sts.title":    "StatefulSet pods at the end: revision and claims",
		"sts.node":     "node",
		"sts.volume":   "claim status and volume",
		"sts.pod":      "pod",
		"sts.revision": "controller-revision-hash",
		"sts.updated":  "update revision",
		"sts.claims":   "claims",
		"sts.yes":      "yes",
		"sts.no":       "no (below the partition)",
	}
}

func statefulSetWordsRU() map[string]string {
	return map[string]string{
		"sts.title":    "Поды StatefulSet в конце: ревизия и claim'ы",
		"sts.node":     "нода",
		"sts.volume":   "статус claim'а и том",
		"sts.pod":      "под",
		"sts.revision": "controller-revision-hash",
		"sts.updated":  "ревизия обновления",
		"sts.claims":   "claim'ы",
		"sts.yes":      "да",
		"sts.no":       "нет (ниже partition)",
	}
}
