package cmd

// The Russian usage of every flag, for --help, man pages and completion
// descriptions under --lang ru (help_lang.go reads it). A flag that
// several commands share with the same English usage (the trace stories'
// --nodes, --filename, the IPAM and scheduler flags; quiz and quiz
// review; the completion commands) has one entry in flagRUShared, keyed
// by that English text, so it reads the same everywhere; a flag of one
// command has one in flagRU.

// flagRUShared is the Russian of a flag usage several commands share, by
// its English text.
var flagRUShared = map[string]string{
	// trace_story.go (StoryOptions.bind), trace.go, options.go.
	"manifest that sets the scene (repeatable; default: the built-in example, examples/app.yaml)":                                                                             "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/app.yaml)",
	"number of identical worker nodes (1 to 10000)":                                                                                                                           "число одинаковых рабочих нод (от 1 до 10000)",
	"pod network of the cluster, cut into node podCIDRs as node-ipam does (default 10.244.0.0/16, wider for more than 255 nodes)":                                             "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"prefix length of each node's podCIDR (kube-controller-manager --node-cidr-mask-size)":                                                                                    "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"KubeSchedulerConfiguration file (kube-scheduler --config): plugins, weights, NodeResourcesFit scoringStrategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio)": "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"manifest file, directory or - (repeatable)":                                                                                                                              "файл манифеста, каталог или - (можно несколько раз)",
	// cobra's completion commands (completions.go, cobra v1.10).
	"disable completion descriptions": "не показывать описания вариантов автодополнения",
	// quiz and quiz review (quiz.go).
	"number of questions (0 for all)": "число вопросов (0 — все)",
	"mock interview: no feedback until the end, then a verdict per topic against the senior bar and the model answers":       "пробное собеседование: разбор только в конце, затем вердикт по каждой теме относительно уровня senior и образцовые ответы",
	"ask exactly these questions (comma-separated ids, see quiz list)":                                                       "задать именно эти вопросы (id через запятую, см. quiz list)",
	"only questions whose last answer scored below 80%":                                                                      "только вопросы, последний ответ на которые набрал меньше 80\u00a0%",
	"only questions never answered":                                                                                          "только вопросы, на которые ещё не отвечали",
	"end the session after this long, with a live countdown (e.g. 30m); an answer in progress when time runs out is dropped": "завершить сеанс через это время, с живым обратным отсчётом (например, «30m»); ответ, начатый к концу времени, отбрасывается",
	"only these question types: single, multi, order, numeric, text":                                                         "только эти типы вопросов: single, multi, order, numeric, text",
	"weakest topics first (last scores weighted by FSRS retrievability; unanswered count 0)":                                 "сначала самые слабые темы (последние оценки взвешены по извлекаемости FSRS; без ответа считается 0)",
}

// flagRU is the Russian usage of one command's flag, by "path --name",
// and of a global flag, by "--name".
var flagRU = map[string]string{
	// trace apply's webhook and trace static-pod (trace.go, trace_static.go).
	"trace apply --webhook":                 "зарегистрировать admission-вебхук на CREATE подов, чей Service не отвечает: mutating (инжектор сайдкаров) или validating (политика)",
	"trace apply --failure-policy":          "failurePolicy вебхука: Fail (по умолчанию в admissionregistration/v1) отклоняет запрос при сбое вызова, Ignore пропускает его",
	"trace apply --webhook-timeout-seconds": "timeoutSeconds вебхука: сколько API-сервер ждёт его ответа (от 1 до 30)",
	"trace static-pod --node":               "нода, в staticPodPath которой кладётся манифест",
	"trace apply-modes --mode":              "какой apply: server (kubectl apply --server-side, managedFields) или client (аннотация last-applied, трёхстороннее слияние)",
	"trace apply-modes --scale":             "сколько реплик задаёт `kubectl scale`, второй писатель (от 1 до 50, не значение из манифеста)",
	"trace apply-modes --deployment":        "Deployment, который применяет история, если в манифестах их несколько",

	// Global flags (root.go, conventions.go).
	"--lang":     "язык объяснений: en или ru",
	"--format":   "формат вывода: text, markdown, mermaid, json или html",
	"--color":    "цвет: auto (только в терминале), always или never; NO_COLOR отключает auto, явный --color always действует всегда",
	"--seed":     "зерно случайных выборов симуляции (то же зерно — тот же вывод)",
	"--verbose":  "показывать каждый шаг (запросы к API, доставку watch-событий, сообщения Raft)",
	"--config":   "файл конфигурации (по умолчанию $XDG_CONFIG_HOME/k8sexplain/config.yaml)",
	"--output":   "то же, что --format (-o как у kubectl): text, markdown, mermaid, json или html",
	"--no-color": "то же, что --color never",
	"--version":  "версия k8sexplain",

	// trace preempt, trace drain, trace apply (trace_preempt.go, trace_drain.go, trace.go).
	"trace preempt --cpu":                         "запрос CPU вытесняющего пода",
	"trace preempt --filename":                    "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/preemption.yaml)",
	"trace preempt --pdb":                         "добавить PodDisruptionBudget для подов первого деплоймента: minAvailable=N или maxUnavailable=N (N или N%)",
	"trace preempt --priority-class":              "priorityClassName вытесняющего пода (класс из манифестов или system-cluster-critical / system-node-critical)",
	"trace drain --delete-emptydir-data":          "отпустить и поды с томами emptyDir (kubectl drain --delete-emptydir-data)",
	"trace drain --disable-eviction":              "удалять поды вместо вытеснения (kubectl drain --disable-eviction: бюджет не спрашивается)",
	"trace drain --force":                         "удалять и поды, которыми не управляет ни один контроллер (kubectl drain --force)",
	"trace drain --ignore-daemonsets":             "оставить поды, которыми управляет DaemonSet (kubectl drain --ignore-daemonsets)",
	"trace drain --pdb":                           "добавить PodDisruptionBudget для подов деплоймента: minAvailable=N или maxUnavailable=N (N или N%)",
	"trace drain --timeout":                       "сдаться через это время (kubectl drain --timeout; 0 — ждать бесконечно, история останавливается через 10 минут)",
	"trace apply --allow-cluster-scoped":          "применять и объекты уровня кластера (по умолчанию они отклоняются)",
	"trace apply --at":                            "вместо шагов показать кластер в заданный момент, как его перечисляет kubectl get -A: время, как его печатает трасса (00:01.500), или номер шага (как на HTML-странице)",
	"trace apply --cluster":                       "файл с манифестами kind: Node, которые станут рабочими нодами",
	"trace apply --compare":                       "добавить сравнение кластера с трассой симулятора для тех же манифестов бок о бок",
	"trace apply --context":                       "контекст kubeconfig (по умолчанию текущий контекст)",
	"trace apply --dry-run":                       "server: трассировать только допуск (admission), значения по умолчанию и проверку (dryRun=All); ничего не сохраняется",
	"trace apply --endpoint-updates-batch-period": "период пакетирования контроллера EndpointSlice: изменения подов за этот период записываются вместе (флаг kube-controller-manager, по умолчанию 0)",
	"trace apply --force":                         "вместе с --namespace: применять поверх объектов с теми же именами",
	"trace apply --keep":                          "оставить то, что создала трасса (по умолчанию в конце удаляется, в том числе по Ctrl-C)",
	"trace apply --kubeconfig":                    "трассировать apply в настоящем кластере из этого kubeconfig (пусто — $KUBECONFIG, затем ~/.kube/config, как у kubectl); без флага никакого обращения к кластеру нет",
	"trace apply --max-steps":                     "записать не больше стольких шагов, от 1 до 200000 (остальные только считаются)",
	"trace apply --namespace":                     "применять в этот существующий неймспейс вместо нового k8sexplain-<случайный> (отклоняется, если в нём есть объекты с теми же именами, без --force)",
	"trace apply --summary":                       "показать только итог (для больших кластеров)",
	"trace apply --timeout":                       "перестать ждать готовых подов через это время",

	// quorum (quorum.go).
	"quorum --check-quorum":        "лидер слагает полномочия без большинства (etcd включает это всегда)",
	"quorum --compact":             "вместе с --quota-backend-bytes: ревизия для etcdctl compact (0 — текущая)",
	"quorum --defrag":              "вместе с --quota-backend-bytes: etcdctl defrag на каждом участнике до снятия тревоги",
	"quorum --fail":                "уронить K участников: сначала лидера, затем фолловеров с наибольшими номерами",
	"quorum --isolate":             "отрезать от сети одного участника: leader или follower",
	"quorum --nodes":               "число участников etcd (от 1 до 9)",
	"quorum --partition":           "разделить сеть на группы размеров A,B[,C] по порядку участников (лидер — etcd-1)",
	"quorum --pre-vote":            "спрашивать предварительное голосование перед повышением терма (по умолчанию в etcd)",
	"quorum --quota-backend-bytes": "разыграть историю о месте с этой квотой хранилища в байтах (0 — значение etcd по умолчанию, 2 GiB)",

	// dnat (dnat.go).
	"dnat --client":                      "IP клиентского пода для прохода пакета, на ноде --node (по умолчанию .1.5 из CIDR кластера); IP эндпоинта показывает случай hairpin",
	"dnat --cluster-cidr":                "сеть подов; пусто — без детектора локального трафика (нет правила маскарадинга)",
	"dnat --cluster-ip":                  "cluster IP сервиса (IPv4 или IPv6) или None для headless-сервиса",
	"dnat --connections":                 "дополнительно открыть столько новых соединений и показать, куда они пошли",
	"dnat --endpoints":                   "готовые эндпоинты ip[:port] через запятую (IPv6 как [ip]:port); пустое значение — ни одного",
	"dnat --endpoints-file":              "читать готовые эндпоинты из этого файла (- для stdin): по одному ip[:port][@node] в строке, как в --endpoints, пустые строки и комментарии # пропускаются; для списков длиннее командной строки (до 150 000)",
	"dnat --endpoints-per-service":       "эндпоинтов на сервис для --services (по умолчанию — эндпоинты показанного сервиса)",
	"dnat --external-name":               "сделать сервис типа ExternalName, указывающий на это DNS-имя",
	"dnat --external-traffic-policy":     "spec.externalTrafficPolicy: Cluster или Local (NodePort и LoadBalancer)",
	"dnat --filename":                    "взять сервис и его эндпоинты из симулированного apply этого манифеста (можно несколько раз; файл, каталог или -)",
	"dnat --form":                        "правила iptables в том виде, как их пишет kube-proxy (restore), или как их выводит iptables-save (save)",
	"dnat --health-check-node-port":      "spec.healthCheckNodePort у LoadBalancer с --external-traffic-policy Local",
	"dnat --internal-traffic-policy":     "spec.internalTrafficPolicy: Cluster или Local",
	"dnat --load-balancer-ip":            "IP входа в status.loadBalancer (по умолчанию 203.0.113.10 для --type LoadBalancer; «none» — ещё не назначен)",
	"dnat --load-balancer-source-ranges": "spec.loadBalancerSourceRanges, CIDR через запятую",
	"dnat --mode":                        "режим kube-proxy: iptables, ipvs или nftables",
	"dnat --nfacct":                      "в ядре есть nfnetlink_acct и xt_nfacct, поэтому kube-proxy добавляет счётчики -m nfacct",
	"dnat --node":                        "нода, чьи правила показаны (по умолчанию нода первого эндпоинта); эндпоинты указывают свою как ip:port@node",
	"dnat --node-port":                   "nodePort порта для NodePort и LoadBalancer",
	"dnat --port":                        "порт сервиса в виде [name:]port[/protocol] (протокол TCP, UDP или SCTP; по умолчанию TCP)",
	"dnat --service":                     "сервис в виде namespace/name",
	"dnat --services":                    "показать, как растут правила и работа на каждый пакет при стольких сервисах, в каждом режиме",
	"dnat --session-affinity":            "sessionAffinity: None или ClientIP",
	"dnat --session-affinity-timeout":    "sessionAffinityConfig.clientIP.timeoutSeconds",
	"dnat --target-port":                 "порт эндпоинтов, когда --endpoints его не задаёт (по умолчанию 8080 из примера, иначе порт сервиса)",
	"dnat --type":                        "spec.type: ClusterIP, NodePort или LoadBalancer (ExternalName — через --external-name)",

	// grpc-skew (grpc_skew.go).
	"grpc-skew --clients":            "клиентские поды, у каждого свой gRPC-канал",
	"grpc-skew --duration":           "виртуальная длительность симулированного прогона",
	"grpc-skew --kill-pod":           "остановить самый нагруженный под (больше всего соединений через ClusterIP) на середине прогона",
	"grpc-skew --live":               "запустить настоящие серверы grpc-go, прокси наподобие DNAT и клиентов на 127.0.0.1 вместо симуляции",
	"grpc-skew --max-connection-age": "keepalive MaxConnectionAge у серверов: GOAWAY через это время (0 — никогда, как в grpc-go по умолчанию)",
	"grpc-skew --pods":               "поды сервера за сервисом",
	"grpc-skew --proxy":              "также балансировать через прокси: none или envoy (каждый запрос)",
	"grpc-skew --rpcs":               "всего унарных RPC, клиенты отправляют их по очереди",
	"grpc-skew --scale-up":           "добавить столько подов на середине прогона",

	// quiz (quiz.go).
	"quiz --answers":    "проверить подготовленный файл ответов (YAML-список {id, answer}) и напечатать отчёт",
	"quiz --difficulty": "только этот уровень: middle, senior или staff",
	"quiz --record":     "вместе с --answers: сохранить проверенные ответы в прогресс",
	"quiz --topic":      "только эти темы (через запятую)",

	// trace autoscale (trace_autoscale.go).
	"trace autoscale --cpu":        "кривая нагрузки: потребность в CPU в процентах от запросов начальных реплик",
	"trace autoscale --deployment": "Deployment, который масштабировать, если в манифесте их несколько",
	"trace autoscale --every":      "сколько держится каждое значение кривой нагрузки",
	"trace autoscale --load-file":  "читать кривую нагрузки из файла (проценты, по одному в строке или через запятую)",
	"trace autoscale --max":        "maxReplicas у HPA, созданного по флагам",
	"trace autoscale --min":        "minReplicas у HPA, созданного по флагам (в API по умолчанию 1)",
	"trace autoscale --target-cpu": "целевая средняя загрузка CPU, процент от запроса",

	// trace crash (trace_crash.go).
	"trace crash --pod":    "под, чей контейнер падает (по умолчанию первый под)",
	"trace crash --reason": "как он падает: panic, oom, liveness или readiness",
	"trace crash --times":  "сколько раз подряд он падает (видно, как растёт back-off)",

	// trace delete (trace_delete.go).
	"trace delete --app":           "как процесс отвечает на SIGTERM: handles-sigterm, ignores-sigterm или slow-drain",
	"trace delete --prestop-sleep": "дать каждому контейнеру preStop sleep такой длительности (исправление гонки)",

	// trace node-failure (trace_nodefail.go).
	"trace node-failure --bare-pod": "запустить на этой ноде ещё и под без контроллера, чтобы показать, что его никто не пересоздаёт",
	"trace node-failure --node":     "нода, которая отказывает",

	// trace rollout (trace_rollout.go).
	"trace rollout --broken-image": "нового образа нет в реестре: обновление останавливается",
	"trace rollout --deployment":   "Deployment, который обновлять, если в манифесте их несколько",
	"trace rollout --image":        "новый образ в виде CONTAINER=IMAGE (обязательно)",
	"trace rollout --partition":    "вместе с --statefulset: сначала задать updateStrategy.rollingUpdate.partition (порядковые номера ниже него остаются на старой ревизии)",
	"trace rollout --set-image":    "псевдоним --image",
	"trace rollout --statefulset":  "обновить этот StatefulSet вместо Deployment: поды заменяются начиная со старшего порядкового номера",

	// trace watch (trace_watch.go).
	"trace watch --controllers":   "число контроллеров, которым нужны все поды и ноды",
	"trace watch --duration":      "сколько виртуального времени разыграть",
	"trace watch --nodes":         "число рабочих нод",
	"trace watch --pods":          "число подов в кластере",
	"trace watch --poll-interval": "сколько контроллер с LIST в цикле спит между проходами",

	// quiz list, quiz stats (quiz.go).
	"quiz list --choices": "показать каждый вопрос с вариантами, пронумерованными так, как их показывает quiz (с тем же --seed)",
	"quiz stats --reset":  "удалить весь прогресс тренажёра (сначала спрашивает)",
	"quiz stats --yes":    "вместе с --reset: не спрашивать",

	// task (task.go).
	"task start --hint":  "показать и подсказку",
	"task start --write": "записать начальный манифест в этот файл (его ещё не должно быть)",
	"task check --hint":  "показать подсказку вместе с результатом",
}
