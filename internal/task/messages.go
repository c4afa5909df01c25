package task

import (
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
)

// ru holds the Russian of the package's words, keyed by the English text:
// the findings of goals (goal.go, history.go, check.go) and the reports.
func ru() map[string]string {
	return map[string]string{
		// findings
		"Deployment {1}: {2} updated, {3} available of {4} replicas":             "Deployment {1}: обновлено {2}, доступно {3} из {4} реплик",
		"Ready pods per {1}: {2}: skew {3}, more than {4}":                       "подов Ready по {1}: {2}: перекос {3}, больше {4}",
		"Service {1} has {2} ready endpoints ({3} in all), want {4}":             "у Service {1} готовых endpoints: {2} (всего {3}), нужно {4}",
		"container {1} of pod {2} requests {3} {4}, less than {5}":               "контейнер {1} пода {2} запрашивает {3} {4}, меньше {5}",
		"containers of {1} restarted {2} times, fewer than {3}":                  "контейнеры {1} перезапускались {2} раз, меньше {3}",
		"kubectl set image: {1}":                                                 "kubectl set image: {1}",
		"no Deployment {1}":                                                      "нет Deployment {1}",
		"no Deployment {1} to roll out":                                          "нет Deployment {1}, который можно обновить",
		"no Deployment {1} to load":                                              "нет Deployment {1}, на который можно дать нагрузку",
		"load: {1}":                                                              "нагрузка: {1}",
		"no Ready pod matches {1}":                                               "ни один под Ready не подходит под {1}",
		"no node has the label {1}":                                              "ни у одной ноды нет метки {1}",
		"at most {1} pods of {2} Ready at once, fewer than {3}":                  "одновременно в Ready было не больше {1} подов {2}, меньше {3}",
		"only {1} pods of {2} available, fewer than {3}":                         "доступно лишь {1} подов {2}, меньше {3}",
		"only {1} pods of {2} Ready for {3} s, fewer than {4}":                   "подов {2}, Ready не меньше {3} с: {1} из нужных {4}",
		"pod {1} has QoS class {2}, not {3}":                                     "у пода {1} класс QoS {2}, а не {3}",
		"pod {1} has priority {2}, below {3}":                                    "у пода {1} приоритет {2}, ниже {3}",
		"pod {1} is not Ready":                                                   "под {1} не Ready",
		"pod {1} runs on {2}, not on {3}":                                        "под {1} работает на {2}, а не на {3}",
		"pod {1} was Ready {2} s after its container started, sooner than {3} s": "под {1} стал Ready через {2} с после старта контейнера, раньше {3} с",
		"pods of two versions exist at once: {1}":                                "одновременно существуют поды двух версий: {1}",
		"pods {1} and {2} both run on {3}":                                       "поды {1} и {2} оба работают на {3}",
		"the endpoints of Service {1} carry port {2}, not {3}":                   "endpoints Service {1} указывают порт {2}, а не {3}",
		"the kubelet cannot notice: {1}":                                         "kubelet не может это заметить: {1}",
		"{1} of {2} pods Ready ({3} exist)":                                      "Ready {1} из {2} подов (существует {3})",
		"{1} of {2} pods Ready ({3} exist); {4} is Pending: {5}":                 "Ready {1} из {2} подов (существует {3}); {4} в Pending: {5}",
		"{1} of {2} pods Ready ({3} exist); {4} is not Ready":                    "Ready {1} из {2} подов (существует {3}); {4} не Ready",
		"{1} pods of {2} at once, more than {3}":                                 "одновременно {1} подов {2}, больше {3}",

		"{1} pods of {2} on {3}, fewer than {4}": "подов {2} на {3}: {1}, меньше {4}",

		"{1} pods Ready, more than {2}": "подов в Ready: {1}, больше {2}",

		"no drain ran": "drain не запускался",
		"kubectl drain had not returned at the end of the run":                           "kubectl drain не завершился к концу прогона",
		"kubectl drain failed: {1}":                                                      "kubectl drain завершился ошибкой: {1}",
		"`kubectl drain {1} --ignore-daemonsets --timeout 2m` after your objects are up": "`kubectl drain {1} --ignore-daemonsets --timeout 2m` после того, как ваши объекты поднимутся",

		"the Ready pods are {1}, not {2}": "поды в Ready — {1}, а не {2}",

		// reports
		"labels": "метки",
		"Starter manifest (task start --write FILE writes it to a file):": "Заготовка манифеста (task start --write FILE запишет её в файл):",
		"Tasks by topic":                     "Задачи по темам",
		"Tasks":                              "Задачи",
		"Task":                               "Задача",
		"Topic":                              "Тема",
		"Level":                              "Уровень",
		"Status":                             "Статус",
		"new":                                "новая",
		"passed":                             "решена",
		"failed":                             "не решена",
		"due":                                "к повторению",
		"Situation":                          "Ситуация",
		"Goal":                               "Цель",
		"Conditions checked":                 "Проверяемые условия",
		"Starting cluster":                   "Исходный кластер",
		"Nodes":                              "Ноды",
		"Objects":                            "Объекты",
		"Forbidden":                          "Запрещено",
		"Hint":                               "Подсказка",
		"What happens next":                  "Что произойдёт потом",
		"Condition":                          "Условие",
		"Result":                             "Результат",
		"pass":                               "выполнено",
		"fail":                               "не выполнено",
		"at {1}":                             "в {1}",
		"Trace steps that explain it":        "Шаги трассы, которые это объясняют",
		"The action":                         "Действие",
		"kubectl refused an object":          "kubectl получил отказ",
		"Passed: {1} of {2} conditions.":     "Решено: выполнено {1} из {2} условий.",
		"Not passed: {1} of {2} conditions.": "Не решено: выполнено {1} из {2} условий.",
		"Reference solution":                 "Эталонное решение",
		"Why the wrong ones fail":            "Почему неверные варианты не проходят",
		"Sources":                            "Источники",
		"The starter manifest was written to {1}: edit it, then run {2}": "Заготовка манифеста записана в {1}: отредактируйте её и запустите {2}",
		"Then run {1}": "Затем запустите {1}",
		"The reference solution is shown after a first check: {1}":                                                             "Эталонное решение — после первой проверки: {1}",
		"kubectl set image {1} after your objects are up":                                                                      "kubectl set image {1} после того, как ваши объекты поднимутся",
		"a CPU load of {1} (of the starting replicas' requests, a step every {2}) on Deployment {3} after your objects are up": "нагрузка на CPU {1} (от запросов исходных реплик, шаг раз в {2}) на Deployment {3} после того, как ваши объекты поднимутся",
		"the first Ready pod of {1} stops answering its {2} probe":                                                             "первый под {1} в Ready перестаёт отвечать на {2}-пробу",
		"ends at {1} (virtual time)":                                                                                           "заканчивается в {1} (виртуальное время)",
		"{1:# task|# tasks}, {2} passed":                                                                                       "{1:# задача|# задачи|# задач}, решено {2}",
	}
}

// texts is the package's catalogue: the English text is the key itself.
var texts = l10n.LazyCatalog(func() (map[string]string, map[string]string) {
	m := ru()
	en := make(map[string]string, len(m))
	for k := range m {
		en[k] = k
	}
	return en, m
})

// msg returns the English key or its Russian translation.
func msg(lang, key string) string {
	if s, ok := texts.Msg(lang, key); ok {
		return s
	}
	return key
}

// msgf is msg with {1}, {2}, … filled from args.
func msgf(lang, key string, args ...any) string {
	return l10n.Format(lang, msg(lang, key), func(name string) (any, bool) {
		i, err := strconv.Atoi(name)
		if err != nil || i < 1 || i > len(args) {
			return nil, false
		}
		return args[i-1], true
	})
}

// In writes the finding in lang.
func (f *Finding) In(lang string) string { return msgf(lang, f.Key, f.Args...) }

// Word is msg for the command layer.
func Word(lang, key string) string { return msg(lang, key) }

// Wordf is msgf for the command layer.
func Wordf(lang, key string, args ...any) string { return msgf(lang, key, args...) }
