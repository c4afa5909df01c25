package trace

// The apply-modes story's texts (trace apply-modes): server-side apply and
// its field ownership, client-side apply and its three-way merge.

func applyModesEN() map[string]Entry {
	return map[string]Entry{
		"kubectl.ssa": {"{command} (spec.replicas: {replicas}): PATCH {path}",
			"Server-side apply sends the manifest as it is, as a PATCH of type application/apply-patch+yaml, with ?fieldManager=kubectl (kubectl's default name for it) and ?force. kubectl computes nothing: the API server merges the applied configuration into the stored object (or creates it) and records in metadata.managedFields which manager set which field. A field the manifest no longer names is released by this manager; a field set to another value than another manager set is a conflict."},
		"apiserver.apply": {"apply: {type}, fieldManager {manager}, force {force}",
			"The API server's field manager (structured-merge-diff) types the applied configuration with the built-in OpenAPI schema, merges it into the live object, and compares ownership: for every field the applier sets to a value that differs from the live one while another manager owns it, it is a conflict, and without force the whole request fails with 409 Conflict naming each field and its manager. With force, the fields move to the applier and leave the other managers' sets. The result is defaulted, validated and stored like any write."},
		"kubectl.scale": {"kubectl scale deployment/{deployment} --replicas={replicas}: PATCH {path}",
			"kubectl scale sends a merge patch {\"spec\":{\"replicas\":N}} to the scale subresource. It names no field manager, so the API server uses its User-Agent up to the first slash, \"kubectl\", and records the field under operation Update with subresource scale: a manager apart from kubectl's own apply (\"kubectl\", operation Apply). An Update never conflicts: it takes the fields it changes from whoever owned them. The HPA controller writes the same subresource, as \"kube-controller-manager\"."},
		"kubectl.label": {"kubectl label deployment {deployment} {label}: PATCH {body}",
			"kubectl label sends a merge patch of metadata.labels with ?fieldManager=kubectl-label. The label is now set, and owned, by a manager other than the one that applies the manifest; the manifest and its last-applied-configuration never mention it."},
		"kubectl.csa": {"{command} (spec.replicas: {replicas}): three-way merge → PATCH {patch}",
			"Client-side apply computes the patch itself from three objects: the last-applied-configuration annotation (what this manifest said last time), the manifest now, and the live object from a GET. A field in the annotation but not in the manifest is deleted (null); a field in the manifest is set when it differs from the live object; a field in neither, whoever set it, is left alone. The new annotation rides along. It is sent as a strategic merge patch, with ?fieldManager=kubectl-client-side-apply. Deleting spec.replicas does not keep the scaled value: the API server defaults the field again, to 1."},
		"kubectl.managedfields": {"kubectl get deployment {deployment} -o yaml --show-managed-fields: spec.replicas {replicas}, owned by {owners}; labels {labels}; managedFields: {managers}",
			"managedFields lists one entry per manager, operation (Apply or Update) and subresource, each with the set of fields it owns (fieldsV1) and the time of its last change; kubectl get hides them unless --show-managed-fields (since v1.21). Two managers that set the same value share a field; a field nobody owns any more stays as it is, unless the applier that released it was its last owner, which removes it."},
	}
}

func applyModesRU() map[string]Entry {
	return map[string]Entry{
		"kubectl.ssa": {"{command} (spec.replicas: {replicas}): PATCH {path}",
			"Server-side apply отправляет манифест как есть — PATCH с типом application/apply-patch+yaml, ?fieldManager=kubectl (имя, которое kubectl даёт ему по умолчанию) и ?force. kubectl ничего не вычисляет: API-сервер сливает применённую конфигурацию с сохранённым объектом (или создаёт его) и записывает в metadata.managedFields, какой менеджер задал какое поле. Поле, которого в манифесте больше нет, этот менеджер отпускает; поле, которому задано другое значение, чем задал другой менеджер, — конфликт."},
		"apiserver.apply": {"apply: {type}, fieldManager {manager}, force {force}",
			"Менеджер полей API-сервера (structured-merge-diff) типизирует применённую конфигурацию по встроенной схеме OpenAPI, сливает её с живым объектом и сверяет владение: каждое поле, которому применяющий задаёт значение, отличное от текущего, пока им владеет другой менеджер, — конфликт, и без force весь запрос отклоняется с 409 Conflict, где названы каждое поле и его менеджер. С force поля переходят к применяющему и уходят из наборов других менеджеров. Результат получает значения по умолчанию, проверяется и сохраняется, как любая запись."},
		"kubectl.scale": {"kubectl scale deployment/{deployment} --replicas={replicas}: PATCH {path}",
			"kubectl scale отправляет merge-патч {\"spec\":{\"replicas\":N}} в подресурс scale. Менеджер полей он не называет, поэтому API-сервер берёт User-Agent до первой косой черты, «kubectl», и записывает поле под операцией Update с подресурсом scale — это другой менеджер, не тот, что применяет манифест («kubectl», операция Apply). Update никогда не конфликтует: он забирает изменённые поля у прежних владельцев. Контроллер HPA пишет в тот же подресурс как «kube-controller-manager»."},
		"kubectl.label": {"kubectl label deployment {deployment} {label}: PATCH {body}",
			"kubectl label отправляет merge-патч metadata.labels с ?fieldManager=kubectl-label. Метка задана — и принадлежит — другому менеджеру, не тому, кто применяет манифест; ни манифест, ни его last-applied-configuration её не упоминают."},
		"kubectl.csa": {"{command} (spec.replicas: {replicas}): трёхстороннее слияние → PATCH {patch}",
			"Client-side apply вычисляет патч сам из трёх объектов: аннотации last-applied-configuration (что этот манифест говорил в прошлый раз), текущего манифеста и живого объекта из GET. Поле, которое есть в аннотации, но нет в манифесте, удаляется (null); поле из манифеста задаётся, если отличается от живого; поле, которого нет ни там, ни там, — кто бы его ни задал — не трогается. Новая аннотация едет в том же патче. Он отправляется как strategic merge patch с ?fieldManager=kubectl-client-side-apply. Удаление spec.replicas не сохраняет отмасштабированное значение: API-сервер снова подставляет значение по умолчанию, 1."},
		"kubectl.managedfields": {"kubectl get deployment {deployment} -o yaml --show-managed-fields: spec.replicas {replicas}, владельцы: {owners}; метки {labels}; managedFields: {managers}",
			"В managedFields по одной записи на менеджера, операцию (Apply или Update) и подресурс, в каждой — набор полей, которыми он владеет (fieldsV1), и время последнего изменения; kubectl get скрывает их без --show-managed-fields (с v1.21). Два менеджера, задавшие одно и то же значение, владеют полем вместе; поле, у которого больше нет владельцев, остаётся как есть, если только отпустивший его применяющий не был последним владельцем — тогда оно удаляется."},
	}
}
