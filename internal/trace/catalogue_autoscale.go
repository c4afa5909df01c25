package trace

// The autoscale story's texts (trace autoscale): the HPA controller's
// steps, metrics-server's, the load, and the table's words.

func autoscaleEN() map[string]Entry {
	return map[string]Entry{
		"kubectl.autoscale": {"kubectl autoscale deployment {deployment} --min={min} --max={max} --cpu={cpu}%: POST an autoscaling/v2 HorizontalPodAutoscaler",
			"kubectl only builds the object: scaleTargetRef names the Deployment, one Resource metric targets an average CPU utilization — a percentage of the pods' CPU requests, not of the node. Defaulting fills the v2 behavior: scale-up without a stabilization window, at most +100 % or +4 pods per 15 s (whichever is more); scale-down at most −100 % per 15 s, its window left empty so the controller's --horizontal-pod-autoscaler-downscale-stabilization (5 min) applies."},
		"story.load": {"load: CPU demand {percent}% of the starting {replicas} × {request} requested = {demand}, spread over the Ready pods",
			"The simulated clients send traffic through the Service, so the CPU demand is shared by the pods that are Ready; a pod that is not Ready gets none, and no pod uses more than its CPU limit (the CFS quota throttles it). What the HPA sees is not this demand but metrics-server's view of it, up to 15 s old."},
		"metrics.scrape": {"metrics-server: scraped the kubelets, {pods:# pod|# pods} with a CPU rate over {window} ({running} running)",
			"metrics-server reads every kubelet's /metrics/resource every --metric-resolution (15 s) and turns two cumulative CPU counters into a rate: a pod needs two scrapes before it has a metric at all, and the value is an average over the window, not the current usage."},
		"hpa.metrics": {"GET {path}: {count:# PodMetric|# PodMetrics} for {pods:# pod|# pods} (kube-apiserver proxies metrics.k8s.io to metrics-server)", ""},
		"hpa.failed": {"sync failed ({reason}): {message}",
			"Without metrics the HPA cannot compute and does not scale: ScalingActive turns False and a Warning event says why. Right after pods start (or metrics-server itself), metrics-server has no second sample yet; pods without a CPU request can never be measured against a utilization target (\"missing request for cpu\"). The controller tries again at the next sync, 15 s later."},
		"hpa.sync": {"sync: {current:# replica|# replicas} at {util}% CPU of request (target {target}%): ratio {ratio} → ceil({ready} × {ratio}) = {proposed}",
			"Every 15 s (--horizontal-pod-autoscaler-sync-period) the controller GETs the target's scale subresource (current replicas = its spec.replicas, the pods = its selector), lists the pods' CPU from the resource metrics API and computes utilization = Σ usage / Σ requests as an integer percent. desiredReplicas = ceil(readyPods × utilization / target); within 10 % of the target (--horizontal-pod-autoscaler-tolerance 0.1) nothing changes."},
		"hpa.tolerance": {"sync: {current:# replica|# replicas} at {util}% CPU of request (target {target}%): ratio {ratio} is within the 0.1 tolerance — stays at {current}",
			"|1 − ratio| ≤ 0.1 counts as on target: the controller proposes the current replica count, which damps flapping around the target. The same rule keeps the count when filling in unready or missing pods would turn the direction round."},
		"hpa.rebalance": {"sync: {ready} Ready at {util}% (ratio {ratio}); {unready} not Ready or too new, {missing} without metrics are filled in → ratio {newratio} over {counted:# pod|# pods}: {proposed}",
			"replica_calculator.go does not trust pods that just started: within the CPU initialization period (5 min after start) a pod counts only once it is Ready and a whole metric window has passed since, and a pod that never became Ready is left out. On a scale-up those pods count as using 0 % and pods without metrics as 0 %; on a scale-down missing pods count as 100 % of their request. The ratio is computed again, and if it no longer points the same way, or is within tolerance, the replicas stay."},
		"hpa.stabilized": {"{reason}: the proposal {proposed} is held at {stabilized} by the {window} window",
			"The v2 behavior keeps every recommendation of the last window: scale-down uses the highest one of the last 5 minutes (--horizontal-pod-autoscaler-downscale-stabilization, as the default behavior leaves the window empty), so a brief dip does not remove pods; scale-up has no window by default and follows the load at once. The AbleToScale condition says ScaleDownStabilized meanwhile. The recommendations live only in the controller's memory: a new HPA, or any HPA after kube-controller-manager restarts, has none yet and may scale down at its first sync."},
		"hpa.limited": {"ScalingLimited {reason}: {message} — {wanted} becomes {desired}",
			"After the window come the policies and the bounds: scale-up may add at most max(+4 pods, +100 %) of the replicas at the start of each 15 s period (selectPolicy Max, the default), scale-down remove at most 100 %; then minReplicas and maxReplicas clamp. ScaleUpLimit and ScaleDownLimit mean a policy capped it, TooManyReplicas and TooFewReplicas that max or min did."},
		"hpa.scale": {"PUT {path}: {target} spec.replicas {from} → {to} ({reason})",
			"The HPA writes only the scale subresource, an autoscaling/v1 Scale whose spec.replicas is the target's — it never edits the Deployment's template. The Deployment controller sees a new replica count with an unchanged pod template, so it scales the current ReplicaSet (ScalingReplicaSet) and starts no rollout; no new revision appears."},
	}
}

func autoscaleRU() map[string]Entry {
	return map[string]Entry{
		"kubectl.autoscale": {"kubectl autoscale deployment {deployment} --min={min} --max={max} --cpu={cpu}%: POST HorizontalPodAutoscaler autoscaling/v2",
			"kubectl только собирает объект: scaleTargetRef указывает на Deployment, единственная метрика Resource задаёт цель по средней загрузке CPU — процент от requests CPU подов, а не от ноды. Defaulting заполняет behavior v2: масштабирование вверх без окна стабилизации, не более +100 % или +4 пода за 15 с (что больше); вниз — не более −100 % за 15 с, окно не задано, и контроллер берёт --horizontal-pod-autoscaler-downscale-stabilization (5 мин)."},
		"story.load": {"нагрузка: спрос на CPU {percent}% от requests.cpu={request} у {replicas:# исходного пода|# исходных подов|# исходных подов}, всего cpu={demand}, делится между Ready-подами",
			"Симулированные клиенты шлют трафик через Service, поэтому спрос на CPU делят поды в состоянии Ready; под без Ready не получает ничего, и ни один под не использует больше своего limit по CPU (его ограничивает квота CFS). HPA видит не сам спрос, а то, что о нём знает metrics-server, с запаздыванием до 15 с."},
		"metrics.scrape": {"metrics-server: опросил kubelet'ы, у {pods:# пода|# подов|# подов} есть скорость CPU за {window} (запущено {running})",
			"metrics-server читает /metrics/resource каждого kubelet'а раз в --metric-resolution (15 с) и превращает два накопительных счётчика CPU в скорость: метрика у пода появляется только после второго опроса, а значение — среднее за окно, а не текущее потребление."},
		"hpa.metrics": {"GET {path}: {count:# PodMetric|# PodMetrics|# PodMetrics} для {pods:# пода|# подов|# подов} (kube-apiserver проксирует metrics.k8s.io в metrics-server)", ""},
		"hpa.failed": {"синхронизация не удалась ({reason}): {message}",
			"Без метрик HPA не может посчитать и не масштабирует: ScalingActive становится False, а событие Warning объясняет причину. Сразу после старта подов (или самого metrics-server) у metrics-server ещё нет второго замера; поды без request по CPU вообще нельзя сравнить с целью по загрузке («missing request for cpu»). Контроллер пробует снова на следующей синхронизации, через 15 с."},
		"hpa.sync": {"синхронизация: {current:# реплика|# реплики|# реплик}, CPU {util}% от request (цель {target}%): отношение {ratio} → ceil({ready} × {ratio}) = {proposed}",
			"Каждые 15 с (--horizontal-pod-autoscaler-sync-period) контроллер делает GET подресурса scale цели (текущие реплики — его spec.replicas, поды — его selector), читает CPU подов из resource metrics API и считает загрузку = Σ потребления / Σ requests в целых процентах. desiredReplicas = ceil(готовые поды × загрузка / цель); в пределах 10 % от цели (--horizontal-pod-autoscaler-tolerance 0.1) ничего не меняется."},
		"hpa.tolerance": {"синхронизация: {current:# реплика|# реплики|# реплик}, CPU {util}% от request (цель {target}%): отношение {ratio} в пределах допуска 0,1 — остаётся {current}",
			"|1 − отношение| ≤ 0.1 считается попаданием в цель: контроллер предлагает текущее число реплик, и это гасит колебания вокруг цели. То же правило сохраняет число реплик, если учёт неготовых подов или подов без метрик развернул бы направление."},
		"hpa.rebalance": {"синхронизация: {ready} Ready при {util}% (отношение {ratio}); {unready} не Ready или слишком новые, {missing} без метрик — подставлены → отношение {newratio} по {counted:# поду|# подам|# подам}: {proposed}",
			"replica_calculator.go не доверяет только что запущенным подам: в течение периода инициализации CPU (5 мин после старта) под учитывается, только когда он Ready и с тех пор прошло целое окно метрики, а под, ни разу не ставший Ready, не учитывается. При масштабировании вверх такие поды считаются потребляющими 0 %, поды без метрик — тоже 0 %; при масштабировании вниз поды без метрик считаются потребляющими 100 % request. Отношение считается заново, и если оно сменило направление или попало в допуск, реплики остаются прежними."},
		"hpa.stabilized": {"{reason}: предложение {proposed} удержано на {stabilized} окном {window}",
			"Поведение v2 хранит все рекомендации за окно: при уменьшении берётся наибольшая за последние 5 минут (--horizontal-pod-autoscaler-downscale-stabilization, так как поведение по умолчанию окно не задаёт), поэтому короткий спад не убирает поды; при увеличении окна по умолчанию нет, и HPA сразу следует за нагрузкой. Условие AbleToScale в это время — ScaleDownStabilized. Рекомендации хранятся только в памяти контроллера: у нового HPA или у любого HPA после перезапуска kube-controller-manager их ещё нет, и он может уменьшить реплики на первой же синхронизации."},
		"hpa.limited": {"ScalingLimited {reason}: {message} — {wanted} превращается в {desired}",
			"После окна применяются политики и границы: вверх можно добавить не больше max(+4 пода, +100 %) от реплик на начало каждого 15-секундного периода (selectPolicy Max, по умолчанию), вниз — убрать не больше 100 %; затем ограничивают minReplicas и maxReplicas. ScaleUpLimit и ScaleDownLimit означают, что упёрлись в политику, TooManyReplicas и TooFewReplicas — в max или min."},
		"hpa.scale": {"PUT {path}: {target} spec.replicas {from} → {to} ({reason})",
			"HPA пишет только подресурс scale — autoscaling/v1 Scale, чей spec.replicas и есть реплики цели; шаблон Deployment он никогда не меняет. Контроллер Deployment видит новое число реплик при том же шаблоне пода, поэтому масштабирует текущий ReplicaSet (ScalingReplicaSet) и не начинает выкат; новой ревизии не появляется."},
	}
}

func autoscaleWordsEN() map[string]string {
	return map[string]string{
		"hpa.title":          "HPA syncs: metrics, proposal, window and policies",
		"hpa.at":             "sync",
		"hpa.load":           "load",
		"hpa.replicas":       "replicas",
		"hpa.ready":          "counted (+left out)",
		"hpa.util":           "CPU of request",
		"hpa.ratio":          "ratio",
		"hpa.proposed":       "proposed",
		"hpa.stabilized":     "after window",
		"hpa.desired":        "desired",
		"hpa.note":           "why",
		"hpa.note.failed":    "no metrics (FailedGetResourceMetric)",
		"hpa.note.tolerance": "within tolerance 0.1",
		"hpa.note.reversed":  "new pods would reverse it: stays",
	}
}

func autoscaleWordsRU() map[string]string {
	return map[string]string{
		"hpa.title":          "Синхронизации HPA: метрики, предложение, окно и политики",
		"hpa.at":             "синхр.",
		"hpa.load":           "нагрузка",
		"hpa.replicas":       "реплики",
		"hpa.ready":          "учтено (+не учтено)",
		"hpa.util":           "CPU от request",
		"hpa.ratio":          "отношение",
		"hpa.proposed":       "предложено",
		"hpa.stabilized":     "после окна",
		"hpa.desired":        "итог",
		"hpa.note":           "почему",
		"hpa.note.failed":    "нет метрик (FailedGetResourceMetric)",
		"hpa.note.tolerance": "в пределах допуска 0,1",
		"hpa.note.reversed":  "новые поды развернули бы: без изменений",
	}
}
