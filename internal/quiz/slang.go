package quiz

import "strings"

// ruSlang maps Russian IT slang and transliterated English terms, by the
// beginning of the word, to the English term they name, so that an
// answer's "шедулер выбирает ноду" meets a rubric's "scheduler + node"
// (issue 22 §2: Russian IT speech mixes both). Longer prefixes first where
// one begins another.
var ruSlang = [][2]string{
	{"шедул", "scheduler"}, {"шедьюл", "scheduler"}, {"скедул", "scheduler"}, {"кублет", "kubelet"},
	{"кубелет", "kubelet"}, {"кубле", "kubelet"}, {"нод", "node"}, {"под", "pod"}, {"деплойм", "deployment"},
	{"деплой", "deploy"}, {"репликасет", "replicaset"}, {"реплика-сет", "replicaset"}, {"эндпоинт", "endpoint"},
	{"эндпойнт", "endpoint"}, {"контейнер", "container"}, {"закоммит", "commit"}, {"коммит", "commit"},
	{"рестарт", "restart"}, {"ретра", "retry"}, {"таинт", "taint"}, {"тейнт", "taint"}, {"толерейш", "toleration"},
	{"аффинити", "affinity"}, {"неймспейс", "namespace"}, {"апишк", "apiserver"}, {"апи", "api"},
	{"етцд", "etcd"}, {"финализатор", "finalizer"}, {"вебхук", "webhook"}, {"сервис", "service"},
	{"лейбл", "label"}, {"селектор", "selector"}, {"кворум", "quorum"}, {"лидер", "leader"}, {"фолловер", "follower"},
	{"прокси", "proxy"}, {"кэш", "cache"}, {"кеш", "cache"}, {"вотч", "watch"}, {"информер", "informer"},
	{"контроллер", "controller"}, {"проб", "probe"}, {"лимит", "limit"}, {"реквест", "request"}, {"троттл", "throttle"},
	{"тротл", "throttle"}, {"ивент", "event"}, {"бэкофф", "backoff"}, {"бекофф", "backoff"}, {"бэкоф", "backoff"},
	{"снапшот", "snapshot"}, {"компакц", "compaction"}, {"дефраг", "defrag"}, {"манифест", "manifest"},
	{"ревизи", "revision"}, {"оператор", "operator"}, {"кластер", "cluster"}, {"образ", "image"}, {"сайдкар", "sidecar"},
	{"инит", "init"}, {"ингресс", "ingress"}, {"балансир", "balance"}, {"скейл", "scale"}, {"отскейл", "scale"},
	{"роллаут", "rollout"}, {"раскатк", "rollout"}, {"фейл", "fail"}, {"зафейл", "fail"}, {"крэш", "crash"}, {"краш", "crash"}, {"падает", "crash"},
	{"квот", "quota"}, {"алярм", "alarm"}, {"аларм", "alarm"}, {"дефолт", "default"}, {"хелсчек", "health"},
	{"рантайм", "runtime"}, {"сервер", "server"}, {"мерж", "merge"}, {"бэкенд", "backend"}, {"бекенд", "backend"},
	{"токен", "token"}, {"конфиг", "config"}, {"фикс", "fix"}, {"трафик", "traffic"}, {"плагин", "plugin"},
	{"валидац", "validation"}, {"аннотац", "annotation"}, {"статус", "status"}, {"менеджер", "manager"},
	{"клиент", "client"}, {"реконсайл", "reconcile"}, {"реконсил", "reconcile"}, {"роллбэк", "rollback"},
	{"откат", "rollback"}, {"эвикт", "evict"}, {"преэмпт", "preempt"}, {"биндинг", "binding"}, {"забинд", "bind"},
	{"хендлер", "handler"}, {"воркер", "worker"}, {"кью", "queue"}, {"лейтенси", "latency"},
	// verbs and nouns of colloquial IT Russian (issue 22 §2, dev-blind2):
	// "выпилить replicas", "кидает конфликт", "персистнула", "прунится"
	{"зеркал", "mirror"}, {"бутстрап", "bootstrap"}, {"джойн", "join"}, {"отвал", "disconnect"},
	{"выпил", "remove"}, {"отжим", "steal"}, {"ресет", "reset"}, {"персист", "persist"}, {"прун", "prune"},
	{"овнер", "owner"}, {"форс", "force"}, {"дроп", "drop"}, {"триггер", "trigger"}, {"матч", "match"},
	{"фолбэк", "fallback"}, {"фоллбэк", "fallback"}, {"фолбек", "fallback"}, {"фоллбек", "fallback"},
	{"стрим", "stream"}, {"релист", "relist"}, {"дрейн", "drain"}, {"дрен", "drain"}, {"апдейт", "update"},
	{"аплай", "apply"}, {"реплик", "replica"}, {"эвент", "event"}, {"шард", "shard"}, {"латентн", "latency"},
	{"фсинк", "fsync"}, {"хеш", "hash"}, {"хэш", "hash"}, {"таймаут", "timeout"}, {"тайм-аут", "timeout"},
	{"дедлайн", "deadline"}, {"сигтерм", "sigterm"}, {"пулл", "pull"}, {"спулл", "pull"}, {"ребут", "reboot"},
	{"кэшир", "cache"}, {"кешир", "cache"}, {"листенер", "listener"}, {"чекпоинт", "checkpoint"},
	{"скедулинг", "scheduling"}, {"шедулинг", "scheduling"}, {"преемпш", "preemption"}, {"эвикш", "eviction"},
	{"ресинк", "resync"}, {"резолв", "resolve"}, {"ретрай", "retry"}, {"фоллов", "follower"}, {"фолов", "follower"},
	{"коннект", "connect"}, {"лимитир", "limit"}, {"инвалид", "invalid"}, {"рандом", "random"}, {"анно", "annotation"},
}

// ruNumbers are Russian number words, read as their digits: a rubric's
// "5|five" meets «пять», «пятерых», «из девяти».
var ruNumbers = map[string]string{}

func init() {
	for digit, forms := range map[string][]string{
		"1":  {"один", "одна", "одно", "одного", "одной", "одному", "одним", "одну"},
		"2":  {"два", "две", "двух", "двум", "двумя", "двое", "двоих"},
		"3":  {"три", "трех", "трем", "тремя", "трое", "троих"},
		"4":  {"четыре", "четырех", "четырем", "четырьмя", "четверо", "четверых"},
		"5":  {"пять", "пяти", "пятью", "пятеро", "пятерых"},
		"6":  {"шесть", "шести", "шестью"},
		"7":  {"семь", "семи", "семью", "семеро"},
		"8":  {"восемь", "восьми", "восемью"},
		"9":  {"девять", "девяти", "девятью"},
		"10": {"десять", "десяти", "десятью"},
	} {
		for _, f := range forms {
			ruNumbers[f] = digit
		}
	}
}

// slangTerm says whether w is a transliterated term itself ("кубелет",
// "снапшот"), not a verb made from one ("рестартит").
func slangTerm(w string) bool {
	for _, s := range ruSlang {
		if w == s[0] {
			return true
		}
	}
	return false
}

// slangAlias is the English term (or the digits) a Russian word stands
// for, or "".
func slangAlias(w string) string {
	if d, ok := ruNumbers[w]; ok {
		return d
	}
	best, n := "", 0
	for _, s := range ruSlang {
		if len(s[0]) > n && strings.HasPrefix(w, s[0]) {
			best, n = s[1], len(s[0])
		}
	}
	// "под" alone is also the preposition "under"; "подо", "подход…" and
	// the like are other words: only the noun's forms are a pod
	if best == "pod" && !podForms[w] {
		return ""
	}
	if best == "node" && !nodeForms[w] {
		return ""
	}
	if best == "api" && !(w == "апи" || strings.HasPrefix(w, "апи-") || strings.HasPrefix(w, "аписервер")) {
		return ""
	}
	return best
}

var (
	podForms  = map[string]bool{"под": true, "пода": true, "поду": true, "подом": true, "поде": true, "поды": true, "подов": true, "подам": true, "подами": true, "подах": true}
	nodeForms = map[string]bool{"нода": true, "ноды": true, "ноде": true, "ноду": true, "нодой": true, "нод": true, "нодам": true, "нодами": true, "нодах": true}
)
