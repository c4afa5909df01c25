package trace

// The static pod story's texts (trace static-pod): the kubelet's file
// source, the mirror pod and what a delete of the mirror does.

func staticEN() map[string]Entry {
	return map[string]Entry{
		"kubelet.static": {"file source {path}: static pod {pod} (uid {uid}, kubernetes.io/config.source: file); the kubelet runs it itself",
			"A static pod is one the kubelet reads from a file in its staticPodPath (kubeadm: /etc/kubernetes/manifests, where the control plane's own kube-apiserver, etcd, scheduler and controller-manager live), checked every 20 s (fileCheckFrequency) and on inotify events. Its name gets the node's name appended, its UID is a hash of the manifest, the node and the file, and it tolerates every NoExecute taint. No scheduler and no API request are involved: the kubelet admits it and starts a pod worker as for any pod bound to its node, which is how a control plane can start before its API server exists."},
		"kubelet.mirror": {"POST mirror pod {pod}: kubernetes.io/config.mirror={hash}, ownerReferences: Node {node} (controller)",
			"The API server cannot run or stop a static pod; it only gets a mirror pod, a copy that the kubelet creates before the runtime starts the containers, marked with the kubernetes.io/config.mirror annotation (the static pod's hash) and owned by the Node (controller: true). NodeRestriction lets a kubelet create no other pod: a mirror bound to its own node, owned by it, using no service account; the ServiceAccount plugin leaves its spec alone. The kubelet writes the static pod's status to the mirror, so kubectl get pods shows it like any other pod."},
		"kubectl.deletemirror": {"kubectl delete pod {pod} (the mirror pod of a static pod on {node})",
			"kubectl sends the same DELETE as for any pod, and the API server marks the mirror for a graceful deletion. Nothing stops the static pod: the kubelet runs what its file says, not what the API server holds."},
		"kubelet.mirror.replace": {"mirror pod {pod} (uid {uid}) is being deleted; the static pod keeps running (IP {ip}): DELETE it with gracePeriodSeconds 0, then create a new mirror",
			"The kubelet sees its mirror pod being deleted and syncs the static pod: its containers are not touched (no SIGTERM, no restart, the same IP). It deletes the old mirror at once (gracePeriodSeconds 0, with a UID precondition), which lets kubectl delete return, and creates a new mirror with a new UID right away. To stop a static pod, remove its file from the staticPodPath: the kubelet then kills it and deletes the mirror for good."},
		"kubelet.mirror.status": {"status manager: the new mirror {pod} lacks the static pod's status; PATCH it (reconciled every {period})",
			"The new mirror was created with an empty status, Pending to whoever reads it. The status manager's periodic sync (syncBatch, every 10 s) finds that the API server's copy differs from the status it holds and writes it back: the mirror shows Running and Ready again, with the same restart count."},
	}
}

func staticRU() map[string]Entry {
	return map[string]Entry{
		"kubelet.static": {"файловый источник {path}: статический под {pod} (uid {uid}, kubernetes.io/config.source: file); kubelet запускает его сам",
			"Статический под kubelet читает из файла в своём staticPodPath (в kubeadm — /etc/kubernetes/manifests, где лежат kube-apiserver, etcd, планировщик и controller-manager самой управляющей плоскости), проверяя его каждые 20 с (fileCheckFrequency) и по событиям inotify. К имени пода добавляется имя ноды, UID — хеш манифеста, ноды и файла, и под терпит любые NoExecute-taint'ы. Ни планировщик, ни запросы к API не участвуют: kubelet допускает под и запускает для него обработчик пода, как для любого пода своей ноды, — так управляющая плоскость и стартует раньше собственного API-сервера."},
		"kubelet.mirror": {"POST зеркального пода {pod}: kubernetes.io/config.mirror={hash}, владелец — нода {node} (controller: true)",
			"API-сервер не может ни запустить, ни остановить статический под; он получает лишь зеркальный под — копию, которую kubelet создаёт до того, как среда выполнения запустит контейнеры, с аннотацией kubernetes.io/config.mirror (хеш статического пода) и владельцем-нодой (controller: true). NodeRestriction не даёт kubelet создать никакой другой под: только зеркальный, привязанный к своей ноде, принадлежащий ей и без сервисного аккаунта; плагин ServiceAccount его spec не трогает. Статус статического пода kubelet пишет в зеркальный, поэтому kubectl get pods показывает его как любой другой под."},
		"kubectl.deletemirror": {"kubectl delete pod {pod} (зеркальный под статического пода на {node})",
			"kubectl отправляет тот же DELETE, что и для любого пода, и API-сервер помечает зеркальный под для корректного удаления. Статический под это не останавливает: kubelet выполняет то, что написано в его файле, а не то, что хранит API-сервер."},
		"kubelet.mirror.replace": {"зеркальный под {pod} (uid {uid}) удаляется; статический под продолжает работать (IP {ip}): удалить его с gracePeriodSeconds 0 и создать новый",
			"Kubelet видит, что его зеркальный под удаляется, и синхронизирует статический под: контейнеры не трогаются (ни SIGTERM, ни перезапуска, IP тот же). Старый зеркальный под он удаляет сразу (gracePeriodSeconds 0, с предусловием по UID), и kubectl delete возвращается, а новый зеркальный под с новым UID тут же создаёт. Чтобы остановить статический под, нужно убрать его файл из staticPodPath: тогда kubelet убьёт его и удалит зеркальный под насовсем."},
		"kubelet.mirror.status": {"менеджер статусов: у нового зеркального пода {pod} нет статуса статического пода; PATCH (сверка каждые {period})",
			"Новый зеркальный под создан с пустым статусом — для читающих он Pending. Периодическая синхронизация менеджера статусов (syncBatch, каждые 10 с) видит, что копия в API-сервере отличается от статуса, который он хранит, и записывает его: зеркальный под снова Running и Ready, с тем же числом перезапусков."},
	}
}
