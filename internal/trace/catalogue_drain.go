package trace

import "github.com/k8sexplain/k8sexplain/internal/provenance"

// The drain story's texts (trace drain): kubectl drain, the eviction
// subresource, the disruption controller. kubectl's own output lines are
// fields ({line}), printed as kubectl prints them in either language.

func drainEN() map[string]Entry {
	return map[string]Entry{
		"drain.cordon": {"{line}",
			"kubectl drain first cordons the node: a strategic merge PATCH that sets spec.unschedulable true (the same as kubectl cordon). Nothing running is touched; the scheduler's NodeUnschedulable filter now refuses the node for new pods, and the node lifecycle controller mirrors the field as the node.kubernetes.io/unschedulable:NoSchedule taint."},
		"node.taint.unschedulable": {"node {node} gets taint {taint}:{effect}: PATCH spec.taints with resourceVersion {rv}",
			"The node lifecycle controller's node update worker (doNoScheduleTaintingPass) keeps the NoSchedule taints in line with the node: spec.unschedulable becomes node.kubernetes.io/unschedulable:NoSchedule, and uncordon takes it away. Pods that tolerate that taint (DaemonSet pods get the toleration automatically) may still be scheduled there."},
		"drain.list": {"GET /api/v1/pods?fieldSelector=spec.nodeName={node}: {count:# pod|# pods} ({pods})",
			"kubectl lists the node's pods in every namespace and runs its filters in order: pods being deleted for long are skipped, DaemonSet pods are refused without --ignore-daemonsets (their controller ignores the cordon and would recreate them), mirror pods are skipped, pods with an emptyDir are refused without --delete-emptydir-data (its data is lost), and pods no controller manages are refused without --force (nobody would recreate them). One refusal stops the drain before any eviction."},
		"drain.warning": {"{line}",
			"What a flag allowed is printed as a warning, one message per filter with the pods it applies to."},
		"drain.evicting": {"{line}",
			"kubectl evicts every pod at once, each in its own goroutine: a POST of a policy/v1 Eviction to the pod's eviction subresource, not a DELETE. The API server, not kubectl, asks the PodDisruptionBudget."},
		"eviction.check": {"Eviction of {pod}: PodDisruptionBudget {pdb} allows {allowed} (currentHealthy {healthy}, desiredHealthy {desired}): decrement disruptionsAllowed and record the pod in status.disruptedPods",
			"The eviction handler finds the one budget that selects the pod (two are refused with 500) and checks its status: observedGeneration must have caught up with the spec, and disruptionsAllowed must be above 0. It writes the budget's status first — one disruption fewer, the pod in disruptedPods — so a parallel eviction reads the new count; a conflict makes it read and check again. Only then is the pod deleted. disruptedPods keeps the pod out of currentHealthy until the disruption controller sees it terminating (or 2 minutes pass)."},
		"eviction.refused": {"{status}: {message} ({cause})",
			"429 TooManyRequests means \"not now\": the budget has no disruption left, so the pod is untouched. kubectl prints only the message; the cause in the Status's details says which budget and its numbers. A 500 means more than one budget selects the pod, which the eviction subresource does not support."},
		"drain.retry": {"{line}",
			"kubectl drain retries a 429 after 5 seconds (EvictErrorRetryDelay), for ever unless --timeout is set. The retry succeeds once the disruption controller counts enough healthy pods again — here, when the ReplicaSet's replacement on another node is Ready."},
		"eviction.condition": {"pod {pod} gets condition DisruptionTarget=True, reason {reason}: \"{message}\"",
			"Before the delete the API server writes the DisruptionTarget condition into the pod's status (addConditionAndDeletePod), so whoever watches the pod — a Job's podFailurePolicy, a controller, kubectl describe — can tell a voluntary disruption from a crash."},
		"eviction.evicted": {"Eviction of {pod} accepted: {status}, the pod is deleted gracefully",
			"An accepted eviction is an ordinary graceful delete: deletionTimestamp and the grace period are set, the kubelet stops the containers (preStop, SIGTERM, SIGKILL at the deadline), the EndpointSlice controller marks the endpoint terminating, and the ReplicaSet creates a replacement at once — the scheduler skips the cordoned node."},
		"eviction.nopdb": {"Eviction of {pod}: no PodDisruptionBudget selects it, deleted at once",
			"Without a budget an eviction is a delete that also sets the DisruptionTarget condition. A drain of a node running every replica of a Deployment without a budget takes them all down together."},
		"eviction.nobudget": {"Eviction of {pod} (phase {phase}, terminating {terminating}): no budget asked",
			"A pod that is Pending, has finished, or is already terminating cannot reduce availability any more, so the handler deletes it without looking at a budget (canIgnorePDB)."},
		"eviction.unhealthy": {"Eviction of {pod}: not Ready, budget {pdb} is met — deleted without using a disruption",
			"A pod that is not Ready does not count as healthy: while the budget is satisfied it may go without decrementing disruptionsAllowed (unhealthyPodEvictionPolicy IfHealthyBudget, the default; AlwaysAllow lets unhealthy pods go in any case)."},
		"disruption.status": {"PodDisruptionBudget {pdb}: expectedPods {expected}, desiredHealthy {desired}, currentHealthy {healthy} → disruptionsAllowed {allowed} ({disrupted:# pod|# pods} in disruptedPods)",
			"The disruption controller recounts the budget on every change of its pods: currentHealthy counts Ready pods that are neither terminating nor in disruptedPods; desiredHealthy is minAvailable, or expectedPods − maxUnavailable; expectedPods is the number of selected pods for an integer minAvailable, else the sum of their controllers' replicas (a percentage is rounded up). disruptionsAllowed = currentHealthy − desiredHealthy, never below 0. It also sets the DisruptionAllowed condition (SufficientPods or InsufficientPods)."},
		"drain.gone": {"{line}",
			"After an accepted eviction kubectl polls the pod every second (waitForDelete) until the GET answers 404 — when the kubelet has stopped the containers and removed the object — or returns a new pod with the same name."},
		"drain.delete": {"DELETE pod {pod} (--disable-eviction: no budget is asked)",
			"With --disable-eviction kubectl deletes the pods one after another and waits for them all: no budget is consulted, so nothing stops a drain from taking every replica at once."},
		"drain.drained": {"{line}",
			"kubectl drain returns when every pod it evicted is gone. The node stays cordoned until kubectl uncordon; the replacements it caused run elsewhere and do not move back."},
		"scheduler.preempt": {"PostFilter DefaultPreemption for {pod} (priority {priority}): {count:# candidate node|# candidate nodes} ({candidates}) → node {node}, victims {victims}, PDB violations {violations}; status.nominatedNodeName={node}",
			"When no node passes Filter, the PostFilter plugin DefaultPreemption looks at every node not rejected as unresolvable: it removes all pods of lower priority, checks that the pod would then fit, and puts back (reprieves) as many as it can — pods whose eviction would break a PodDisruptionBudget first, then the others, most important first. Among the candidates it picks, in order: the fewest PDB violations, the lowest highest-priority victim, the smallest sum of victims' priorities, the fewest victims, the latest start time; budgets are respected only as far as possible. The pod is not bound yet: the node is written to status.nominatedNodeName and the pod goes back to the queue until the victims are gone."},
		"scheduler.victim": {"victim {pod} (priority {priority}) on {node}: DisruptionTarget ({reason}: \"{message}\"), then DELETE — graceful, for {preemptor}",
			"The scheduler evicts the victims itself, asynchronously (SchedulerAsyncPreemption, on by default): it patches each victim's status with the DisruptionTarget condition, reason PreemptionByScheduler, deletes it with its normal grace period — preemption does not ask the eviction API, so a budget cannot answer 429 — and records a Preempted event naming the preemptor's UID. The victim's controller creates a replacement, which is Pending if nothing lower is left to preempt."},
		"drain.pending": {"{line}", ""},
		"drain.failed": {"{line}",
			"A drain that fails leaves the node cordoned with the pods it could not evict still running; kubectl exits non-zero and can be run again."},
	}
}

func drainRU() map[string]Entry {
	return map[string]Entry{
		"drain.cordon": {"{line}",
			"Сначала kubectl drain делает cordon: strategic merge PATCH ставит spec.unschedulable: true (то же, что kubectl cordon). Работающие поды не трогаются; фильтр планировщика NodeUnschedulable больше не пускает на ноду новые поды, а контроллер жизненного цикла нод отражает поле в taint node.kubernetes.io/unschedulable:NoSchedule."},
		"node.taint.unschedulable": {"нода {node} помечается taint'ом {taint}:{effect}: PATCH spec.taints с resourceVersion {rv}",
			"Обработчик обновлений нод в контроллере жизненного цикла (doNoScheduleTaintingPass) держит NoSchedule-taint'ы в согласии с нодой: spec.unschedulable превращается в node.kubernetes.io/unschedulable:NoSchedule, uncordon его снимает. Поды, которые его терпят (DaemonSet-подам допуск добавляется автоматически), по-прежнему могут туда попасть."},
		"drain.list": {"GET /api/v1/pods?fieldSelector=spec.nodeName={node}: {count:# под|# пода|# подов} ({pods})",
			"kubectl получает поды ноды во всех пространствах имён и по порядку применяет фильтры: давно удаляемые пропускаются, поды DaemonSet без --ignore-daemonsets — отказ (их контроллер не смотрит на cordon и создаст их снова), mirror-поды пропускаются, поды с emptyDir без --delete-emptydir-data — отказ (данные пропадут), поды без контроллера без --force — отказ (их никто не пересоздаст). Один отказ останавливает drain до первого вытеснения."},
		"drain.warning": {"{line}",
			"То, что разрешил флаг, печатается предупреждением: по сообщению на фильтр со списком подов."},
		"drain.evicting": {"{line}",
			"kubectl вытесняет все поды сразу, каждый в своей горутине: POST объекта policy/v1 Eviction в подресурс eviction пода, а не DELETE. PodDisruptionBudget спрашивает API-сервер, а не kubectl."},
		"eviction.check": {"Eviction пода {pod}: PodDisruptionBudget {pdb} разрешает {allowed} (currentHealthy {healthy}, desiredHealthy {desired}): уменьшить disruptionsAllowed и записать под в status.disruptedPods",
			"Обработчик вытеснения находит единственный бюджет, выбирающий под (при двух — отказ 500), и проверяет его статус: observedGeneration должен догнать spec, а disruptionsAllowed быть больше 0. Сначала он пишет статус бюджета — на одно нарушение меньше, под в disruptedPods, — чтобы параллельное вытеснение прочитало новое число; при конфликте читает и проверяет заново. Только после этого под удаляется. disruptedPods исключает под из currentHealthy, пока контроллер disruption не увидит его удаляемым (или не пройдут 2 минуты)."},
		"eviction.refused": {"{status}: {message} ({cause})",
			"429 TooManyRequests значит «не сейчас»: у бюджета не осталось разрешённых нарушений, под не тронут. kubectl печатает только сообщение; причина в details объекта Status называет бюджет и его числа. 500 — под выбирают несколько бюджетов, этого подресурс eviction не поддерживает."},
		"drain.retry": {"{line}",
			"kubectl drain повторяет запрос после 429 через 5 секунд (EvictErrorRetryDelay) — бесконечно, если не задан --timeout. Повтор удаётся, когда контроллер disruption снова насчитает достаточно здоровых подов — здесь, когда замена от ReplicaSet на другой ноде станет Ready."},
		"eviction.condition": {"под {pod} получает условие DisruptionTarget=True, причина {reason}: «{message}»",
			"Перед удалением API-сервер записывает в статус пода условие DisruptionTarget (addConditionAndDeletePod), чтобы наблюдающие за подом — podFailurePolicy у Job, контроллеры, kubectl describe — отличали добровольное нарушение от сбоя."},
		"eviction.evicted": {"Eviction пода {pod} принят: {status}, под удаляется корректно (graceful)",
			"Принятое вытеснение — обычное graceful-удаление: ставятся deletionTimestamp и срок завершения, kubelet останавливает контейнеры (preStop, SIGTERM, SIGKILL в срок), контроллер EndpointSlice помечает endpoint как terminating, а ReplicaSet сразу создаёт замену — планировщик обходит ноду под cordon."},
		"eviction.nopdb": {"Eviction пода {pod}: ни один PodDisruptionBudget его не выбирает, удаляется сразу",
			"Без бюджета вытеснение — это удаление с условием DisruptionTarget. Drain ноды, на которой все реплики Deployment без бюджета, остановит их все разом."},
		"eviction.nobudget": {"Eviction пода {pod} (фаза {phase}, удаляется {terminating}): бюджет не спрашивается",
			"Под в Pending, завершившийся или уже удаляемый больше не может снизить доступность, поэтому обработчик удаляет его, не глядя на бюджет (canIgnorePDB)."},
		"eviction.unhealthy": {"Eviction пода {pod}: не Ready, бюджет {pdb} выполнен — удаляется без расхода нарушения",
			"Под не в Ready не считается здоровым: пока бюджет выполнен, он может уйти, не уменьшая disruptionsAllowed (unhealthyPodEvictionPolicy IfHealthyBudget по умолчанию; AlwaysAllow отпускает нездоровые поды всегда)."},
		"disruption.status": {"PodDisruptionBudget {pdb}: expectedPods {expected}, desiredHealthy {desired}, currentHealthy {healthy} → disruptionsAllowed {allowed} (в disruptedPods: {disrupted:# под|# пода|# подов})",
			"Контроллер disruption пересчитывает бюджет при каждом изменении его подов: currentHealthy — поды в Ready, не удаляемые и не записанные в disruptedPods; desiredHealthy — minAvailable или expectedPods − maxUnavailable; expectedPods — число выбранных подов при целом minAvailable, иначе сумма реплик их контроллеров (процент округляется вверх). disruptionsAllowed = currentHealthy − desiredHealthy, не меньше 0. Он же ставит условие DisruptionAllowed (SufficientPods или InsufficientPods)."},
		"drain.gone": {"{line}",
			"После принятого вытеснения kubectl раз в секунду запрашивает под (waitForDelete), пока GET не ответит 404 — kubelet остановил контейнеры и удалил объект — или не вернёт новый под с тем же именем."},
		"drain.delete": {"DELETE пода {pod} (--disable-eviction: бюджет не спрашивается)",
			"С --disable-eviction kubectl удаляет поды один за другим и ждёт их все: бюджеты не проверяются, и ничто не мешает drain остановить все реплики сразу."},
		"drain.drained": {"{line}",
			"kubectl drain возвращается, когда все вытесненные поды исчезли. Нода остаётся под cordon до kubectl uncordon; замены работают на других нодах и обратно не переезжают."},
		"scheduler.preempt": {"PostFilter DefaultPreemption для {pod} (приоритет {priority}): {count:# нода-кандидат|# ноды-кандидата|# нод-кандидатов} ({candidates}) → нода {node}, жертвы {victims}, нарушений PDB {violations}; status.nominatedNodeName={node}",
			"Когда ни одна нода не прошла Filter, плагин PostFilter DefaultPreemption смотрит каждую ноду, не отвергнутую как безнадёжную: убирает все поды с меньшим приоритетом, проверяет, что под тогда поместится, и возвращает (милует) столько, сколько может, — сначала те, чьё вытеснение нарушило бы PodDisruptionBudget, затем остальные, от самых важных. Из кандидатов выбирается по порядку: меньше всего нарушений PDB, самый низкий наивысший приоритет жертв, наименьшая сумма приоритетов, меньше всего жертв, самый поздний старт; бюджеты соблюдаются лишь по возможности. Под ещё не привязан: нода записывается в status.nominatedNodeName, и под возвращается в очередь, пока жертвы не уйдут."},
		"scheduler.victim": {"жертва {pod} (приоритет {priority}) на {node}: DisruptionTarget ({reason}: «{message}»), затем DELETE — штатно, ради {preemptor}",
			"Жертв вытесняет сам планировщик, асинхронно (SchedulerAsyncPreemption, включён по умолчанию): патчит статус каждой условием DisruptionTarget с причиной PreemptionByScheduler, удаляет её с обычным сроком завершения — Eviction API не используется, поэтому бюджет не может ответить 429 — и пишет событие Preempted с UID вытесняющего пода. Контроллер жертвы создаёт замену; она остаётся в Pending, если вытеснять больше некого."},
		"drain.pending": {"{line}", ""},
		"drain.failed": {"{line}",
			"Неудавшийся drain оставляет ноду под cordon, а невытесненные поды работают дальше; kubectl завершается с ненулевым кодом, и его можно запустить снова."},
	}
}

// drainSources are the drain texts' sources.
func drainSources() map[string]provenance.Source {
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	kubectl := "staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (RunDrain, RunCordonOrUncordon)"
	helper := "staging/src/k8s.io/kubectl/pkg/drain/drain.go (evictPods, waitForDelete)"
	eviction := "pkg/registry/core/pod/storage/eviction.go (EvictionREST.Create, checkAndDecrement, addConditionAndDeletePod)"
	disruption := "pkg/controller/disruption/disruption.go (trySync, getExpectedPodCount, countHealthyPods, updatePdbStatus)"
	return map[string]provenance.Source{
		"drain.cordon":             k(kubectl, "staging/src/k8s.io/kubectl/pkg/drain/cordon.go (PatchOrReplace)", "pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go"),
		"node.taint.unschedulable": k("pkg/controller/nodelifecycle/node_lifecycle_controller.go (doNoScheduleTaintingPass)", "staging/src/k8s.io/api/core/v1/well_known_taints.go (TaintNodeUnschedulable)", "pkg/controller/daemon/util/daemonset_util.go (AddOrUpdateDaemonPodTolerations)"),
		"drain.list":               k("staging/src/k8s.io/kubectl/pkg/drain/drain.go (GetPodsForDeletion)", "staging/src/k8s.io/kubectl/pkg/drain/filters.go (makeFilters)"),
		"drain.warning":            k("staging/src/k8s.io/kubectl/pkg/drain/filters.go (PodDeleteList.Warnings)", kubectl),
		"drain.evicting":           k(helper, "staging/src/k8s.io/kubectl/pkg/drain/drain.go (EvictPod: policy/v1 Eviction)"),
		"eviction.check":           k(eviction, "pkg/controller/disruption/disruption.go (DeletionTimeout 2 min)"),
		"eviction.refused":         k(eviction, "staging/src/k8s.io/api/policy/v1/types.go (DisruptionBudgetCause)"),
		"drain.retry":              k(helper, kubectl+" (EvictErrorRetryDelay 5 s)"),
		"eviction.condition":       k(eviction, "staging/src/k8s.io/api/core/v1/types.go (DisruptionTarget)"),
		"eviction.evicted":         k(eviction, "pkg/registry/core/pod/strategy.go (CheckGracefulDelete)", "pkg/controller/replicaset/replica_set.go"),
		"eviction.nopdb":           k(eviction),
		"eviction.nobudget":        k("pkg/registry/core/pod/storage/eviction.go (canIgnorePDB)"),
		"eviction.unhealthy":       k(eviction, "staging/src/k8s.io/api/policy/v1/types.go (UnhealthyPodEvictionPolicyType)"),
		"disruption.status":        k(disruption, "staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go (UpdateDisruptionAllowedCondition)"),
		"drain.gone":               k(helper),
		"drain.delete":             k("staging/src/k8s.io/kubectl/pkg/drain/drain.go (deletePods)"),
		"drain.drained":            k(kubectl),
		"drain.failed":             k(kubectl),
		"scheduler.preempt":        k("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode, PodEligibleToPreemptOthers)", "pkg/scheduler/framework/preemption/preemption.go (pickOneNodeForPreemption, filterPodsWithPDBViolation)", "pkg/scheduler/schedule_one.go (handleSchedulingFailure: nominatedNodeName)"),
		"scheduler.victim":         k("pkg/scheduler/framework/preemption/executor.go (PreemptPod, prepareCandidateAsync)", "pkg/features/kube_features.go (SchedulerAsyncPreemption)", "staging/src/k8s.io/api/core/v1/types.go (PodReasonPreemptionByScheduler)"),
	}
}
