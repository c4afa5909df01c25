package quiz

// The topic and level a question's heading names, in the session's
// language: the ids (--topic etcd, difficulty: senior) stay as they are in
// flags, files and JSON; only the heading a person reads is translated.

// topicsRU are the Russian names of the question bank's topics.
var topicsRU = map[string]string{
	"api-machinery": "устройство API",
	"apply":         "kubectl apply",
	"control-plane": "управляющий слой",
	"deployments":   "Deployment",
	"dns":           "DNS",
	"etcd":          "etcd",
	"grpc":          "gRPC",
	"lifecycle":     "жизненный цикл",
	"pods":          "поды",
	"probes":        "пробы",
	"reconcile":     "циклы согласования",
	"resources":     "ресурсы",
	"runtime":       "среда выполнения",
	"scheduler":     "планировщик",
	"security":      "безопасность",
	"services":      "сервисы",
	"shutdown":      "завершение подов",
	"watch":         "watch",
}

// levelsRU are the Russian names of the levels, as Russian-speaking
// engineers say them.
var levelsRU = map[string]string{
	"junior": "джун",
	"middle": "мидл",
	"senior": "сеньор",
	"staff":  "стафф",
}

// topicName is topic as a heading in lang; an unknown topic stays as it is.
func topicName(lang, topic string) string {
	if lang == "ru" {
		if s, ok := topicsRU[topic]; ok {
			return s
		}
	}
	return topic
}

// levelName is a difficulty as a heading in lang.
func levelName(lang, level string) string {
	if lang == "ru" {
		if s, ok := levelsRU[level]; ok {
			return s
		}
	}
	return level
}
