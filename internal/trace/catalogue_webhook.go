package trace

// The admission webhook's texts (trace apply --webhook): the API server's
// call to a webhook whose Service does not answer, and what failurePolicy
// makes of the timeout.

func webhookEN() map[string]Entry {
	return map[string]Entry{
		"apiserver.webhook.call": {"{type} {webhook} ({configuration}): POST {url}; failurePolicy {policy}, timeoutSeconds {seconds}",
			"Admission webhooks are plugins of the API server's chain: MutatingAdmissionWebhook runs after the built-in mutating plugins, before the object is named and validated; ValidatingAdmissionWebhook after validation, before ResourceQuota. For every webhook whose rules (operation, resource) and namespaceSelector match, the API server POSTs an AdmissionReview over HTTPS to the webhook's Service and waits for the answer up to timeoutSeconds (10 s by default in admissionregistration/v1, 1 to 30 allowed), which it also passes as ?timeout=. The request waits with it, and so does its client: here a worker of the ReplicaSet controller, whose create call is blocked."},
		"apiserver.webhook.timeout": {"{webhook}: no answer within {timeout}; failurePolicy Fail refuses the request",
			"A timeout, like a refused connection or a bad certificate, is a failure to call the webhook, not a denial: failurePolicy decides. Fail, admissionregistration/v1's default, fails closed: the API server answers 500 InternalError with the call's error, and nothing is stored. Every matching request now waits the full timeout before it fails: the ReplicaSet controller records FailedCreate and retries with its back-off, so no pod the webhook's rules match is created until the webhook answers again or its configuration is changed (a namespaceSelector that leaves out kube-system keeps the control plane's own pods out of this)."},
		"apiserver.webhook.failopen": {"{webhook}: no answer within {timeout}; failurePolicy Ignore: admission goes on without it (audit annotation {annotation}: {webhook})",
			"With failurePolicy Ignore a failed call fails open: the API server logs the error, adds the audit annotation failed-open.mutation.webhook.admission.k8s.io/round_0_index_N (validating: failed-open.validating.…) naming the webhook, counts apiserver_admission_webhook_fail_open_count, and goes on as if the webhook had not matched. The object is stored without the webhook's work (a pod without its injected sidecar, an object no policy checked), and the client is not told: no warning comes back. Each matching request is still slowed by the full timeout."},
	}
}

func webhookRU() map[string]Entry {
	return map[string]Entry{
		"apiserver.webhook.call": {"{type} {webhook} ({configuration}): POST {url}; failurePolicy {policy}, timeoutSeconds {seconds}",
			"Admission-вебхуки — плагины цепочки API-сервера: MutatingAdmissionWebhook идёт после встроенных мутирующих плагинов, до того как объекту дано имя и он проверен; ValidatingAdmissionWebhook — после валидации, перед ResourceQuota. Для каждого вебхука, чьи rules (операция, ресурс) и namespaceSelector подходят, API-сервер отправляет POST с AdmissionReview по HTTPS в Service вебхука и ждёт ответа не дольше timeoutSeconds (по умолчанию 10 с в admissionregistration/v1, допустимо от 1 до 30), который передаёт и в параметре ?timeout=. Запрос ждёт вместе с ним, а с ним и его клиент: здесь воркер контроллера ReplicaSet, чей вызов create заблокирован."},
		"apiserver.webhook.timeout": {"{webhook}: нет ответа за {timeout}; failurePolicy Fail отклоняет запрос",
			"Таймаут, как и отказ в соединении или неверный сертификат, — это сбой вызова вебхука, а не отказ вебхука: решает failurePolicy. Fail, значение по умолчанию в admissionregistration/v1, закрывает путь: API-сервер отвечает 500 InternalError с ошибкой вызова, и ничего не сохраняется. Теперь каждый подходящий запрос ждёт весь таймаут и только потом получает отказ: контроллер ReplicaSet пишет FailedCreate и повторяет с нарастающей паузой, так что ни один под, подходящий под правила вебхука, не создаётся, пока вебхук снова не ответит или его конфигурацию не изменят (namespaceSelector, исключающий kube-system, не даёт этому задеть поды самой управляющей плоскости)."},
		"apiserver.webhook.failopen": {"{webhook}: нет ответа за {timeout}; failurePolicy Ignore: admission идёт дальше без него (аудит-аннотация {annotation}: {webhook})",
			"С failurePolicy Ignore сбой вызова пропускает запрос (fail open): API-сервер пишет ошибку в лог, добавляет аудит-аннотацию failed-open.mutation.webhook.admission.k8s.io/round_0_index_N (у валидирующих — failed-open.validating.…) с именем вебхука, увеличивает apiserver_admission_webhook_fail_open_count и продолжает, как если бы вебхук не подошёл. Объект сохраняется без работы вебхука (под без внедрённого сайдкара, объект, который не проверила политика), а клиенту об этом не сообщают: предупреждения нет. Каждый подходящий запрос всё равно задерживается на весь таймаут."},
	}
}
