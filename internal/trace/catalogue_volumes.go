package trace

// The texts of volume binding: the PV controller, the local-path
// provisioner, the scheduler's VolumeBinding PreBind and the kubelet's
// wait for the mount (a StatefulSet's volumeClaimTemplates, a claim).

func volumesEN() map[string]Entry {
	return map[string]Entry{
		"pv.wait": {"claim {claim} stays Pending — StorageClass {class} binds WaitForFirstConsumer",
			"The PV controller binds claims to volumes. A class with volumeBindingMode WaitForFirstConsumer tells it to wait: no volume is made until a pod that uses the claim has been scheduled, so the volume can be made where the pod will run (a node-local disk, a zone). The claim is Pending and its event says so; the scheduler will pick the node and write it on the claim."},
		"pv.noclass": {"claim {claim} names StorageClass {class}, which does not exist — nothing can provision it",
			"A class is looked up when the claim is provisioned, not when it is created: the API server accepts a claim naming any class, and the PV controller then reports ProvisioningFailed on every sync. For the scheduler such a claim is an \"immediate\" one (no class says WaitForFirstConsumer) that is not bound, so every pod using it is rejected in PreFilter. Fix the name, or leave storageClassName out to get the default class."},
		"pv.classless": {"claim {claim} has storageClassName \"\" — no class, so no provisioning; only a pre-created volume could bind it",
			"An empty storageClassName is not \"the default\": it asks for no class at all, and the DefaultStorageClass admission plugin leaves it alone (it fills only an unset field). With no PersistentVolume of no class to match, the claim stays Pending (FailedBinding) and so does every pod that uses it."},
		"pv.provision": {"claim {claim} (class {class}, selected node {node}) is for the external provisioner {provisioner} — annotate the claim and wait",
			"The PV controller does not create volumes for an external (CSI) provisioner: it writes volume.kubernetes.io/storage-provisioner (and the older beta key) on the claim and records ExternalProvisioning. The provisioner, a Deployment of its own, watches claims and acts on those that name it, once the scheduler's volume.kubernetes.io/selected-node is there."},
		"provisioner.create": {"POST PersistentVolume {volume} for {claim}: {size}, hostPath {path}, node affinity kubernetes.io/hostname={node} (after {took})",
			"A dynamically provisioned volume is named pvc-<claim UID>. The provisioner creates it with spec.claimRef already naming the claim (UID included), so nobody else can take it, and with the class's reclaimPolicy. local-path makes a directory on the selected node, hence the node affinity: every later pod that uses this claim must run on that node."},
		"pv.bind": {"bind claim {claim} ↔ volume {volume}: the volume Bound, the claim's spec.volumeName with pv.kubernetes.io/bind-completed and bound-by-controller, then the claim Bound",
			"Binding is two-sided and done by the PV controller in a fixed order: the volume's status.phase Bound, then the claim's spec.volumeName and its annotations pv.kubernetes.io/bind-completed and pv.kubernetes.io/bound-by-controller, then the claim's status Bound with its capacity and access modes. A claim counts as bound for the scheduler only with both volumeName and bind-completed."},
		"scheduler.prebind": {"VolumeBinding Reserve and PreBind for {pod}: PUT claim {claims} with {annotation}={node}, then wait for it to be bound",
			"The scheduler's VolumeBinding plugin takes part in every cycle of a pod with claims: PreFilter rejects a pod whose claim is missing or unbound with an Immediate class, Filter keeps the nodes where the claim's volume can be (its node affinity, the class's allowedTopologies). After the node is chosen, Reserve assumes the claim on it and PreBind writes the node on the claim and then waits — polling every second, for up to 600 s (bindTimeoutSeconds) — until the PV controller has bound it. The pod's binding goes out only after that."},
		"scheduler.volumesbound": {"VolumeBinding PreBind for {pod}: claim {claims} bound after {waited} (checked every second) — now the pod's binding",
			"PreBind's wait is why a pod with a new volume is scheduled seconds later than one without: the provisioner's work and the binding happen between the scheduling decision and the pods/binding POST."},
		"kubelet.volumes": {"volumes of {pod} attached and mounted ({claims}) after {waited} — only then the sandbox",
			"Before it creates the sandbox the kubelet waits for every volume of the pod to be attached and mounted (WaitForAttachAndMount, checked every 300 ms). Its volume manager reads the claim and the volume it is bound to and mounts it under /var/lib/kubelet/pods/<uid>/volumes; a claim that is not bound keeps the pod in ContainerCreating."},
	}
}

func volumesRU() map[string]Entry {
	return map[string]Entry{
		"pv.wait": {"claim {claim} остаётся Pending — StorageClass {class} связывает в режиме WaitForFirstConsumer",
			"PV-контроллер связывает claim'ы с томами. Класс с volumeBindingMode WaitForFirstConsumer велит ему ждать: том не создаётся, пока не запланирован под, который использует claim, — чтобы том появился там, где под будет работать (локальный диск ноды, зона). claim в состоянии Pending, и его событие говорит об этом; ноду выберет планировщик и запишет её в claim."},
		"pv.noclass": {"claim {claim} ссылается на StorageClass {class}, которого нет, — создать том некому",
			"Класс ищется, когда claim обеспечивают томом, а не когда его создают: API-сервер принимает claim с любым классом, а PV-контроллер затем при каждой синхронизации сообщает ProvisioningFailed. Для планировщика такой claim — «немедленный» (ни один класс не говорит WaitForFirstConsumer) и не связанный, поэтому каждый под, который его использует, отклоняется на PreFilter. Исправьте имя или уберите storageClassName, чтобы получить класс по умолчанию."},
		"pv.classless": {"claim {claim} с storageClassName \"\" — без класса, поэтому том не создаётся; связать его можно только с заранее созданным томом",
			"Пустой storageClassName — это не «по умолчанию»: он означает «без класса», и плагин admission DefaultStorageClass его не трогает (он заполняет только незаданное поле). Если нет PersistentVolume без класса, claim остаётся Pending (FailedBinding), как и каждый под, который его использует."},
		"pv.provision": {"claim {claim} (класс {class}, выбранная нода {node}) — для внешнего провиженера {provisioner}: пометить claim и ждать",
			"PV-контроллер не создаёт тома для внешнего (CSI) провиженера: он пишет в claim аннотацию volume.kubernetes.io/storage-provisioner (и старый beta-ключ) и записывает событие ExternalProvisioning. Провиженер — отдельный Deployment — следит за claim'ами и берётся за те, где указан он сам, как только там появится volume.kubernetes.io/selected-node от планировщика."},
		"provisioner.create": {"POST PersistentVolume {volume} для {claim}: {size}, hostPath {path}, spec.nodeAffinity kubernetes.io/hostname={node} (через {took})",
			"Динамически созданный том называется pvc-<UID claim'а>. Провиженер создаёт его с уже заполненным spec.claimRef (вместе с UID), так что никто другой его не займёт, и с reclaimPolicy класса. local-path делает каталог на выбранной ноде, отсюда spec.nodeAffinity: каждый следующий под с этим claim'ом должен работать на этой ноде."},
		"pv.bind": {"связывает claim {claim} ↔ том {volume}: том Bound, в claim — spec.volumeName с pv.kubernetes.io/bind-completed и bound-by-controller, затем claim Bound",
			"Связывание двустороннее, и PV-контроллер делает его в строгом порядке: status.phase тома — Bound, затем spec.volumeName claim'а и его аннотации pv.kubernetes.io/bind-completed и pv.kubernetes.io/bound-by-controller, затем статус claim'а Bound с ёмкостью и режимами доступа. Для планировщика claim связан, только если есть и volumeName, и bind-completed."},
		"scheduler.prebind": {"VolumeBinding Reserve и PreBind для {pod}: PUT claim {claims} с {annotation}={node}, затем ждёт связывания",
			"Плагин планировщика VolumeBinding участвует в каждом цикле пода с claim'ами: PreFilter отклоняет под, чей claim отсутствует или не связан при классе Immediate, Filter оставляет ноды, где может быть том claim'а (его spec.nodeAffinity, allowedTopologies класса). Когда нода выбрана, Reserve закрепляет claim за ней, а PreBind пишет ноду в claim и ждёт — проверяя раз в секунду, не дольше 600 с (bindTimeoutSeconds), — пока PV-контроллер его не свяжет. Только после этого уходит привязка пода."},
		"scheduler.volumesbound": {"VolumeBinding PreBind для {pod}: claim {claims} связан через {waited} (проверка раз в секунду) — теперь привязка пода",
			"Из-за ожидания в PreBind под с новым томом планируется на секунды позже, чем без тома: работа провиженера и связывание идут между решением планировщика и POST pods/binding."},
		"kubelet.volumes": {"тома {pod} подключены и смонтированы ({claims}) через {waited} — только теперь песочница",
			"Прежде чем создать песочницу, kubelet ждёт, пока все тома пода будут подключены и смонтированы (WaitForAttachAndMount, проверка каждые 300 мс). Его volume manager читает claim и связанный с ним том и монтирует его в /var/lib/kubelet/pods/<uid>/volumes; несвязанный claim держит под в ContainerCreating."},
	}
}

func volumesPhrasesEN() map[string]string {
	return map[string]string{
		"admission.defaultclass":    "DefaultStorageClass: storageClassName={1}",
		"admission.inuseprotection": "StorageObjectInUseProtection: finalizer {1}",
	}
}

func volumesPhrasesRU() map[string]string {
	return map[string]string{
		"admission.defaultclass":    "DefaultStorageClass: storageClassName={1}",
		"admission.inuseprotection": "StorageObjectInUseProtection: финализатор {1}",
	}
}
