package cmd

// The Russian help catalogue (issue 27 §4): --help, man pages and shell
// completions' descriptions under --lang ru (or K8SEXPLAIN_LANG=ru, or
// lang: ru in the config file). English stays the default and the source
// text; a Russian entry says the same, in the glossary's words
// (docs/glossary.md).
//
// Adding a command is one entry in helpRU (keyed by its path without
// "k8sexplain", "" for the root) and one in flagRU for each new flag
// whose generic entry does not fit. TestEveryCommandHasRussianHelp fails
// when a command or a flag has no Russian text and is not listed in
// helpRUPending.

// helpRUText is a command's help in Russian. Example may be empty when
// the English one has no prose (command lines only): it is then kept.
type helpRUText struct {
	Short, Long, Example string
}

// helpRU is the Russian help of each command, by path ("" is the root).
var helpRU = map[string]helpRUText{
	"": {
		Short: "Внутреннее устройство Kubernetes наглядно: трассы из настоящей симуляции, кворум Raft, правила kube-proxy, тренажёр",
		Long: `k8sexplain — офлайн-тренажёр по внутреннему устройству Kubernetes. Каждая трасса получается
из детерминированной симуляции кластера (API-сервер, хранилище наподобие etcd, контроллеры,
планировщик, kubelet, kube-proxy), поэтому другой манифест даёт другую историю.

Настройки берутся из флагов, затем из переменных окружения K8SEXPLAIN_* (K8SEXPLAIN_LANG=ru), затем
из файла конфигурации ($XDG_CONFIG_HOME/k8sexplain/config.yaml, иначе ~/.config/k8sexplain/config.yaml).

Коды выхода: 0 — успех, 1 — неверные входные данные, 2 — ошибка в командной строке, 3 — внутренняя
ошибка, 4 — ошибка окружения (диск заполнен, каталог состояния только для чтения, в stdout нельзя
писать, stdin закрыт), 130 — прервано.`,
	},
	"version":    {Short: "Показать версию k8sexplain"},
	"completion": {Short: "Создать скрипт автодополнения для указанной оболочки"},
	"help": {Short: "Справка по любой команде", Long: `help показывает справку по любой команде.
Наберите k8sexplain help [путь к команде], чтобы увидеть её полностью.`},
	"completion bash":       {Short: "Создать скрипт автодополнения для bash"},
	"completion fish":       {Short: "Создать скрипт автодополнения для fish"},
	"completion powershell": {Short: "Создать скрипт автодополнения для powershell"},
	"completion zsh":        {Short: "Создать скрипт автодополнения для zsh"},
	"man":                   {Short: "Записать в каталог DIR man-страницу (раздел 1) для каждой команды"},
	"environment": {
		Short: "Переменные окружения, которые меняют поведение k8sexplain",
	},
	"trace": {
		Short: "Что кластер делает шаг за шагом, по детерминированной симуляции",
	},
	"trace apply": {
		Short: "Каждый шаг после `kubectl apply`: API-сервер, etcd, контроллеры, планировщик, kubelet, среда выполнения, эндпоинты",
		Long: `Прогоняет манифесты через симулированный кластер (по умолчанию одна управляющая нода и 3 рабочие)
и показывает, что сделал каждый компонент, по восьми фазам истории apply, с метками виртуального
времени. Файлы задаются аргументами или флагом -f (можно несколько раз): файл, каталог (его *.yaml,
*.yml, *.json по алфавиту) или - для stdin. Без файлов трассируется встроенный пример (examples/app.yaml).
С флагом --kubeconfig манифесты применяются к этому настоящему кластеру (на стороне сервера, в новый
неймспейс, который в конце удаляется), и то, что сообщает кластер, трассируется с теми же
объяснениями; --compare добавляет сравнение с симуляцией бок о бок.`,
		Example: `  k8sexplain trace apply                          # встроенный пример
  k8sexplain trace apply examples/app.yaml
  k8sexplain trace apply -v examples/app.yaml       # каждый запрос к API и каждая доставка watch-события
  k8sexplain trace apply --lang ru --format markdown examples/app.yaml > notes.md
  k8sexplain trace apply --nodes 5 -f examples/app.yaml
  k8sexplain trace apply --cluster examples/tainted-nodes.yaml examples/app.yaml
  k8sexplain trace apply --scheduler-config examples/scheduler-mostallocated.yaml examples/app.yaml
  k8sexplain trace apply --webhook mutating --failure-policy Ignore   # инжектор сайдкаров, который не отвечает
  helm template ./chart | k8sexplain trace apply -
  k8sexplain trace apply app.yaml --kubeconfig ~/.kube/config --compare   # ваш кластер рядом с симуляцией`,
	},
	"trace autoscale": {Short: "HorizontalPodAutoscaler под кривой нагрузки: метрики, формула числа реплик, окна и политики, каждая синхронизация"},
	"trace crash": {Short: "Контейнер падает: перезапускается только он, с задержками CrashLoopBackOff, а IP пода остаётся (pause)",
		Long: `Применяет манифесты (файлы аргументами или через -f, как у trace apply; по умолчанию examples/app.yaml),
ждёт, пока все поды станут Ready, затем роняет контейнер одного пода и показывает ответ kubelet: паника
(код выхода 2) или OOM kill (137, OOMKilled) перезапускает только этот контейнер, с задержкой 0 с, затем
10 с с удвоением до 5 минут (CrashLoopBackOff); контейнер pause держит сетевое пространство имён, поэтому
IP пода не меняется. --reason liveness показывает, как падающая liveness-проба приводит к тому же
перезапуску; --reason readiness только выводит под из эндпоинтов.`,
		Example: `  k8sexplain trace crash examples/app.yaml
  k8sexplain trace crash -f examples/app.yaml
  k8sexplain trace crash --reason oom --times 6
  k8sexplain trace crash --pod web-6c64cbcbb9-lt5xd --reason liveness
  k8sexplain trace crash --reason readiness --lang ru`,
	},
	"trace delete": {Short: "Корректное завершение: deletionTimestamp, preStop, SIGTERM, SIGKILL и гонка с удалением эндпоинта",
		Long: `Применяет манифесты (файлы аргументами или через -f; по умолчанию examples/app.yaml; аргумент, который
не называет ни файла, ни каталога, — это имя пода), ждёт, пока все поды станут Ready, затем выполняет
` + "`kubectl delete pod NAME`" + ` (без имени — первый под) и показывает корректное завершение: API-сервер
ставит deletionTimestamp и грейс-период; параллельно контроллер EndpointSlice помечает эндпоинт
завершающимся и kube-proxy убирает его, а kubelet выполняет preStop и посылает SIGTERM. Клиенты шлют
100 запросов в секунду через Service; трасса считает те, что попадают в под, который их уже не принимает.`,
		Example: `  k8sexplain trace delete pod examples/app.yaml
  k8sexplain trace delete pod -f examples/app.yaml
  k8sexplain trace delete pod web-6c64cbcbb9-lt5xd -f examples/app.yaml --app ignores-sigterm
  k8sexplain trace delete pod --app slow-drain
  k8sexplain trace delete pod --prestop-sleep 5s      # исправление: сначала уходят эндпоинты, потом SIGTERM`,
	},
	"trace drain": {Short: "kubectl drain: cordon, Eviction API против PodDisruptionBudget (429 и повтор), замены на других нодах",
		Long: `Применяет манифесты (файлы после NODE или -f; по умолчанию examples/app.yaml), ждёт, пока все поды
станут Ready, и выполняет ` + "`kubectl drain NODE`" + ` так, как это делает kubectl v1.37: помечает ноду
недоступной для планирования (PATCH spec.unschedulable; контроллер жизненного цикла нод добавляет taint
node.kubernetes.io/unschedulable:NoSchedule), перечисляет поды ноды и фильтрует их (поды DaemonSet, поды
с emptyDir и поды без контроллера отклоняются без --ignore-daemonsets, --delete-emptydir-data, --force),
затем отправляет Eviction (POST) для каждого пода. API-сервер спрашивает PodDisruptionBudget пода, статус
которого ведёт контроллер disruption: если допустимых нарушений не осталось, он отвечает 429
TooManyRequests, и kubectl повторяет каждые 5 с, пока замена от ReplicaSet — запланированная на другую
ноду — не станет Ready. --pdb добавляет бюджет для подов деплоймента; --disable-eviction удаляет поды
вместо вытеснения, в обход любого бюджета.`,
		Example: `  k8sexplain trace drain node-a --nodes 2 --pdb minAvailable=2    # 429, повтор, затем успех
  k8sexplain trace drain node-b examples/app.yaml --pdb maxUnavailable=0 --timeout 30s
  k8sexplain trace drain node-a --nodes 2 --pdb minAvailable=2 --disable-eviction`,
	},
	"trace node-failure": {Short: "Нода умирает: истечение Lease, NotReady/Unknown, taint unreachable, вытеснение через 300 с, замены",
		Long: `Применяет манифесты (файлы аргументами или через -f; по умолчанию examples/app.yaml) и, если не задан
--bare-pod=false, голый Pod, привязанный к ноде, ждёт, пока все поды станут Ready, затем отключает ноде
питание. Её kubelet перестаёт продлевать Lease; контроллер жизненного цикла нод по истечении грейс-периода
ставит ей Ready=Unknown и taint node.kubernetes.io/unreachable; у подов есть допуск (toleration) на 300 с от
admission DefaultTolerationSeconds, и когда он истекает, поды вытесняются; контроллер ReplicaSet создаёт
замены, а планировщик размещает их на уцелевших нодах. Голый Pod тоже вытесняется, и его никто не
пересоздаёт.`,
		Example: `  k8sexplain trace node-failure examples/app.yaml --node node-b
  k8sexplain trace node-failure -f examples/statefulset.yaml --node node-a --bare-pod=false
  k8sexplain trace node-failure --node node-a --bare-pod=false --format markdown`,
	},
	"trace preempt": {Short: "Вытеснение по приоритету: под с высоким приоритетом никуда не помещается, DefaultPreemption выбирает ноду и жертв, nominatedNodeName, корректное завершение, привязка",
		Long: `Применяет манифесты (по умолчанию examples/preemption.yaml: PriorityClass low, medium и high и
деплойменты, которые заполняют все рабочие ноды), ждёт, пока все поды станут Ready, и создаёт под
«critical» с --priority-class (по умолчанию high) и запросом --cpu. Плагин допуска Priority превращает
класс в spec.priority; ни одна нода не подходит, поэтому PostFilter планировщика, DefaultPreemption,
ищет на каждой ноде наименьший набор подов с более низким приоритетом, удаление которых освобождает
место (оставляя как можно больше, в первую очередь нарушителей бюджета), и выбирает ноду по критериям
upstream по порядку: меньше всего нарушений PodDisruptionBudget, самый низкий наивысший приоритет жертв,
наименьшая сумма приоритетов, меньше всего жертв, самый поздний старт. Планировщик записывает
status.nominatedNodeName, ставит каждой жертве условие DisruptionTarget (PreemptionByScheduler) и
удаляет её корректно; под привязывается, когда место освободилось. --pdb добавляет бюджет для подов
первого деплоймента: вытеснение соблюдает его лишь насколько может (best effort).`,
		Example: `  k8sexplain trace preempt                                  # уходит batch-под, стартовавший последним
  k8sexplain trace preempt --pdb minAvailable=2             # бюджет уводит вытеснение на под api
  k8sexplain trace preempt --priority-class medium --cpu 2  # ниже только batch-поды: те же правила выбора ноды`,
	},
	"trace rollout": {Short: "Последовательное обновление (rolling update) шаг за шагом: новый ReplicaSet, масштабирование вверх и вниз, смена эндпоинтов",
		Long: `Применяет манифесты (файлы аргументами или через -f; по умолчанию examples/app.yaml), ждёт, пока все
поды станут Ready, затем выполняет ` + "`kubectl set image`" + ` и показывает последовательное обновление
(rolling update) контроллером Deployment: maxSurge округляется вверх, maxUnavailable вниз, новый
ReplicaSet растёт, а старые сжимаются в пределах бюджета доступности, старые поды завершаются, эндпоинты
переключаются; после каждого масштабирования — таблица размеров ReplicaSet'ов. С --broken-image новый
образ невозможно скачать: обновление останавливается на ProgressDeadlineExceeded, и ` + "`kubectl rollout undo`" + `
возвращает старый шаблон.`,
		Example: `  k8sexplain trace rollout examples/app.yaml --image web=nginx:1.28
  k8sexplain trace rollout -f examples/app.yaml --image web=nginx:1.28
  k8sexplain trace rollout --image web=nginx:1.28 --broken-image
  k8sexplain trace rollout -f examples/app.yaml --deployment web --image web=registry.example.com/web:v2 --format markdown
  k8sexplain trace rollout -f examples/statefulset.yaml --statefulset web --image nginx=registry.k8s.io/nginx-slim:0.28 --partition 1`,
	},
	"trace static-pod": {Short: "Статический под: kubelet запускает манифест из своего staticPodPath, создаёт зеркальный под и пересоздаёт его после kubectl delete",
		Long: `Готовит сцену (-f, по умолчанию examples/app.yaml), затем кладёт FILE (по умолчанию
examples/static-pod.yaml, один kind: Pod) в staticPodPath ноды --node, /etc/kubernetes/manifests.
Файловый источник kubelet называет под <имя>-<нода>, даёт ему UID — хеш манифеста — и
kubernetes.io/config.source: file и запускает его сам: без планировщика и без привязки. До того как среда
выполнения запустит контейнеры, kubelet создаёт зеркальный под — копию с аннотацией
kubernetes.io/config.mirror и нодой в роли владельца-контроллера; это всё, что API-сервер знает о поде, и
туда kubelet пишет его статус. Затем kubectl delete pod удаляет зеркальный под: kubelet сразу удаляет его
остаток (срок 0) и создаёт новый с новым UID, а контейнер продолжает работать. Остановить под можно,
только убрав файл.`,
		Example: `  k8sexplain trace static-pod                          # examples/static-pod.yaml на node-a
  k8sexplain trace static-pod examples/static-pod.yaml --node node-b -f examples/init.yaml`,
	},
	"trace watch": {Short: "Контроллеры, которые делают LIST в цикле, против информеров, которые делают LIST один раз и затем WATCH: нагрузка на API-сервер"},
	"quorum": {
		Short: "Кворум etcd и split brain, как их решает настоящая библиотека Raft из etcd",
		Long: `quorum показывает, почему в управляющем слое 3 или 5 участников etcd и почему 2 — худший выбор.

Сначала таблица кворума (большинство floor(N/2)+1, сколько отказов выдерживается), затем история на N
участниках go.etcd.io/raft/v3, настроенных так, как их запускает etcd (CheckQuorum, PreVote, HeartbeatTick 1,
ElectionTick 10, один тик — 100 мс): выбирается лидер, записывается объект Kubernetes, случается сбой,
запись пробуют на каждой стороне, сеть восстанавливается, и участники догоняют лидера. Выборы, голоса и
фиксацию записей решает библиотека; прогон детерминирован.

Без флага сбоя сеть делится на две половины, и лидер оказывается в меньшей (у одного участника сбоя
нет). В конце сказано, что кластер Kubernetes может и чего не может.

С флагом --quota-backend-bytes вместо этого разыгрывается история о месте в etcd: контроллер
перезаписывает ConfigMap, пока проверка квоты не отклонит Put с ошибкой «etcdserver: mvcc: database space exceeded»
и через Raft не поднимется тревога NOSPACE; удаление всё ещё проходит; затем etcdctl compact (--compact,
по умолчанию текущая ревизия), etcdctl defrag на каждом участнике (--defrag) и etcdctl alarm disarm.`,
	},
	"dnat": {
		Short: "Правила, которые kube-proxy пишет для сервиса (ClusterIP, NodePort, LoadBalancer), и путь пакета через них",
		Long: `dnat отвечает на вопрос «IP сервиса нет ни на одном интерфейсе — где же живёт ClusterIP?» правилами,
которые на ноде действительно есть: вход iptables-restore, который kube-proxy пишет для сервиса (или,
с --form save, то, что выводит iptables-save), путь SYN-пакета клиентского пода через них с
детерминированными случайными выборами модуля statistic, запись conntrack, которая снимает NAT с ответа,
и альтернативы IPVS и nftables. Сервисы NodePort и LoadBalancer (с loadBalancerSourceRanges), политики
трафика Local, привязка сессий (session affinity), UDP и SCTP смоделированы так, как их пишет kube-proxy v1.37;
--node выбирает, чьи это правила, а внешние клиенты проходят путь до NodePort и IP балансировщика.

Без флагов объясняется встроенный пример сервиса (default/web, 3 эндпоинта).`,
	},
	"grpc-skew": {
		Short: "Почему gRPC через сервис ClusterIP нагружает один под и что распределяет нагрузку",
		Long: `grpc-skew отвечает на вопрос с собеседования «мы масштабировали gRPC-сервис до 10 подов, а весь трафик
по-прежнему идёт в один — почему?». HTTP/2 держит одно долгоживущее соединение на канал, DNAT kube-proxy
балансирует соединения, а не запросы, поэтому с политикой pick_first по умолчанию один клиент нагружает
один под. Рядом показаны клиенты через ClusterIP (под для каждого соединения выбирается теми же
правилами и детерминированными выборами, что печатает команда dnat) и клиенты с round_robin по
DNS-ответу headless-сервиса; по желанию — прокси Envoy, который балансирует каждый запрос.

--scale-up добавляет поды на середине прогона (ни grpc-go, ни путь через ClusterIP не замечают их, пока
соединение не оборвётся), --max-connection-age заставляет серверы слать GOAWAY, и соединения
распределяются заново, --kill-pod останавливает самый нагруженный под на середине прогона. --live
ставит опыт с настоящими серверами google.golang.org/grpc, прокси наподобие DNAT и клиентами на
127.0.0.1 (с --max-connection-age тоже, там от 50 мс до 2 с, и не больше 1 000 переподключений в
секунду: клиенты × (поды + 1) / возраст; серверы оставляют MaxConnectionAgeGrace grpc-go по
умолчанию, бесконечность, поэтому ни один вызов не обрывается).`,
	},
	"quiz": {
		Short: "Вопросы собеседования по Kubernetes с проверкой ответов и интервальным повторением",
		Long: `Тренажёр собеседования по внутреннему устройству Kubernetes: задаёт вопросы, проверяет ответы (и
свободный текст, офлайн), объясняет образцовый ответ, называет команду k8sexplain, которая это
показывает, и планирует повторение по алгоритму FSRS.

В терминале вопросы — интерактивные меню. Иначе ответы читаются из stdin, по строке на вопрос; конец
ввода завершает сеанс:
  один вариант          номер варианта:                     2
  несколько вариантов   номера через запятую или пробел:    1, 3
  порядок шагов         номера шагов в нужном порядке:      3 1 4 2
  число                 число, можно с единицей:            3 ноды / «30s» / 3 nodes
  свободный текст       ответ одной строкой
Числа можно писать как 1/3, 33%, 50,000, 50k или «1200m» (милликоры), где это позволяет единица. Ответ,
который не удаётся прочитать, спрашивается снова с ожидаемой формой; пустая строка или ? показывает
образцовый ответ. В терминале ответ свободным текстом может занимать несколько строк (две пустые
строки подряд завершают его). После разбора (образцовый ответ; для свободного текста — список ключевых
пунктов) вы подтверждаете или меняете предложенную оценку: любую для свободного текста и только более
низкую («Трудно — угадал») для верного варианта, порядка или числа. Подтверждённая оценка и есть
итог: по ней идут повторение, отчёт, --mistakes, --weakest и статистика. В построчном режиме и в файлах
ответов оценку можно дописать в конец ответа: «2 #hard», «etcd фиксирует запись на большинстве #good»
(again, hard, good, easy), или «rating: hard» в записи файла ответов; без неё остаётся предложенная.

Варианты перемешиваются, и заново — каждый раз, когда вопрос возвращается. --answers FILE проверяет
заранее подготовленный лист, YAML-список {id, answer}, где номера вариантов и шагов те, что показывает
«quiz list --choices» с тем же --seed, и необязательная оценка; прогресс он не трогает, если нет --record.

Тренировки: --weakest (сначала самые слабые темы), --mistakes (вопросы с ошибками), --new (ещё без
ответа), --id ID,... и --type text,numeric,... Новые вопросы сеанса выбираются с зерном от часов, если
не задан --seed. --exam — пробное собеседование: разбор только в конце, затем вердикт по каждой теме
относительно уровня senior и все образцовые ответы; --time-limit 30m добавляет обратный отсчёт: в
заголовке каждого вопроса, а в терминале — в верхней строке, и он идёт, пока вы печатаете. Когда
время кончается посреди ответа, начатый ответ отбрасывается (этот вопрос и остальные считаются
недостигнутыми); в построчном режиме время проверяется между ответами.

Прогресс (журнал ответов, который только дописывается, и выведенное из него состояние) хранится в
$XDG_STATE_HOME/k8sexplain, иначе в ~/.local/state/k8sexplain; чтобы перенести его, задайте
quiz.state-dir в конфигурации или K8SEXPLAIN_QUIZ_STATE_DIR. Ctrl-C сохраняет прогресс, печатает итог
и завершает работу с кодом 130.`,
	},
	"quiz review": {Short: "Задать только те вопросы, которые интервальное повторение считает пора повторить"},
	"quiz stats":  {Short: "Освоение по темам, серия дней и что пора повторить"},
	"quiz list":   {Short: "Просмотреть банк вопросов"},
	"task":        {Short: "Практические задания: напишите манифесты, оценка — по состоянию, в котором окажется симулированный кластер"},
	"task list":   {Short: "Список заданий с темой, уровнем и вашим статусом"},
	"task start":  {Short: "Описание задания: исходный кластер, что произойдёт дальше, цель и её условия"},
	"task check":  {Short: "Запустить ваши манифесты из исходного состояния задания и оценить кластер, который получится"},
	"task solution": {
		Short: "Показать эталонное решение (после первой проверки)",
	},
}

// flagRU is the Russian usage of each flag: "path --name" for one
// command's flag, "--name" for a flag that means the same everywhere.
var flagRU = map[string]string{
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

	// trace apply (trace.go).
	"trace static-pod --cluster-cidr":             "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace static-pod --filename":                 "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример)",
	"trace static-pod --node":                     "нода, в staticPodPath которой кладётся манифест",
	"trace static-pod --node-cidr-mask-size":      "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace static-pod --nodes":                    "число одинаковых рабочих нод (от 1 до 10000)",
	"trace static-pod --scheduler-config":         "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace preempt --cluster-cidr":                "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace preempt --cpu":                         "запрос CPU вытесняющего пода",
	"trace preempt --filename":                    "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример)",
	"trace preempt --node-cidr-mask-size":         "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace preempt --nodes":                       "число одинаковых рабочих нод (от 1 до 10000)",
	"trace preempt --pdb":                         "добавить PodDisruptionBudget для подов первого деплоймента: minAvailable=N или maxUnavailable=N (N или N%)",
	"trace preempt --priority-class":              "priorityClassName вытесняющего пода (класс из манифестов или system-cluster-critical / system-node-critical)",
	"trace preempt --scheduler-config":            "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace crash --cluster-cidr":                  "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace crash --filename":                      "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/app.yaml)",
	"trace crash --node-cidr-mask-size":           "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace crash --nodes":                         "число одинаковых рабочих нод (от 1 до 10000)",
	"trace crash --pod":                           "под, чей контейнер падает (по умолчанию первый под)",
	"trace crash --reason":                        "как он падает: panic, oom, liveness или readiness",
	"trace crash --scheduler-config":              "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace crash --times":                         "сколько раз подряд он падает (видно, как растёт задержка)",
	"trace node-failure --bare-pod":               "запустить на этой ноде и голый Pod, чтобы показать, что его никто не пересоздаёт",
	"trace node-failure --cluster-cidr":           "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace node-failure --filename":               "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/app.yaml)",
	"trace node-failure --node":                   "нода, которая отказывает",
	"trace node-failure --node-cidr-mask-size":    "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace node-failure --nodes":                  "число одинаковых рабочих нод (от 1 до 10000)",
	"trace node-failure --scheduler-config":       "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace delete --app":                          "как процесс реагирует на SIGTERM: handles-sigterm, ignores-sigterm или slow-drain",
	"trace delete --cluster-cidr":                 "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace delete --filename":                     "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/app.yaml)",
	"trace delete --node-cidr-mask-size":          "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace delete --nodes":                        "число одинаковых рабочих нод (от 1 до 10000)",
	"trace delete --prestop-sleep":                "дать каждому контейнеру preStop sleep такой длительности (исправление гонки)",
	"trace delete --scheduler-config":             "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace rollout --broken-image":                "нового образа нет в реестре: обновление останавливается",
	"trace rollout --cluster-cidr":                "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace rollout --deployment":                  "Deployment, который обновить, если в манифесте их несколько",
	"trace rollout --filename":                    "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/app.yaml)",
	"trace rollout --image":                       "новый образ в виде CONTAINER=IMAGE (обязателен)",
	"trace rollout --node-cidr-mask-size":         "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace rollout --nodes":                       "число одинаковых рабочих нод (от 1 до 10000)",
	"trace rollout --partition":                   "с --statefulset: сначала задать updateStrategy.rollingUpdate.partition (номера ниже сохраняют старую ревизию)",
	"trace rollout --scheduler-config":            "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace rollout --set-image":                   "синоним --image",
	"trace rollout --statefulset":                 "обновить этот StatefulSet вместо Deployment: поды заменяются от наибольшего номера вниз",
	"trace drain --cluster-cidr":                  "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace drain --delete-emptydir-data":          "отпустить и поды с томами emptyDir (kubectl drain --delete-emptydir-data)",
	"trace drain --disable-eviction":              "удалять поды вместо вытеснения (kubectl drain --disable-eviction: бюджет не спрашивается)",
	"trace drain --filename":                      "манифест, задающий сцену (можно несколько раз; по умолчанию встроенный пример examples/app.yaml)",
	"trace drain --force":                         "удалять и поды, которыми не управляет ни один контроллер (kubectl drain --force)",
	"trace drain --ignore-daemonsets":             "оставить поды, которыми управляет DaemonSet (kubectl drain --ignore-daemonsets)",
	"trace drain --node-cidr-mask-size":           "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace drain --nodes":                         "число одинаковых рабочих нод (от 1 до 10000)",
	"trace drain --pdb":                           "добавить PodDisruptionBudget для подов деплоймента: minAvailable=N или maxUnavailable=N (N или N%)",
	"trace drain --scheduler-config":              "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
	"trace drain --timeout":                       "сдаться через это время (kubectl drain --timeout; 0 — ждать бесконечно, история останавливается через 10 минут)",
	"trace apply --allow-cluster-scoped":          "применять и объекты уровня кластера (по умолчанию они отклоняются)",
	"trace apply --at":                            "вместо шагов показать кластер в заданный момент, как его перечисляет kubectl get -A: время, как его печатает трасса (00:01.500), или номер шага (как на HTML-странице)",
	"trace apply --cluster":                       "файл с манифестами kind: Node, которые станут рабочими нодами",
	"trace apply --cluster-cidr":                  "сеть подов кластера, которую node-ipam нарезает на podCIDR нод (по умолчанию 10.244.0.0/16, шире при числе нод больше 255)",
	"trace apply --compare":                       "добавить сравнение кластера с трассой симулятора для тех же манифестов бок о бок",
	"trace apply --context":                       "контекст kubeconfig (по умолчанию текущий контекст)",
	"trace apply --dry-run":                       "server: трассировать только допуск (admission), значения по умолчанию и проверку (dryRun=All); ничего не сохраняется",
	"trace apply --endpoint-updates-batch-period": "период пакетирования контроллера EndpointSlice: изменения подов за этот период записываются вместе (флаг kube-controller-manager, по умолчанию 0)",
	"trace apply --filename":                      "файл манифеста, каталог или - (можно несколько раз)",
	"trace apply --force":                         "вместе с --namespace: применять поверх объектов с теми же именами",
	"trace apply --keep":                          "оставить то, что создала трасса (по умолчанию в конце удаляется, в том числе по Ctrl-C)",
	"trace apply --kubeconfig":                    "трассировать apply в настоящем кластере из этого kubeconfig (пусто — $KUBECONFIG, затем ~/.kube/config, как у kubectl); без флага никакого обращения к кластеру нет",
	"trace apply --max-steps":                     "записать не больше стольких шагов, от 1 до 200000 (остальные только считаются)",
	"trace apply --namespace":                     "применять в этот существующий неймспейс вместо нового k8sexplain-<случайный> (отклоняется, если в нём есть объекты с теми же именами, без --force)",
	"trace apply --node-cidr-mask-size":           "длина префикса podCIDR каждой ноды (--node-cidr-mask-size у kube-controller-manager)",
	"trace apply --nodes":                         "число одинаковых рабочих нод (от 1 до 10000)",
	"trace apply --webhook":                       "зарегистрировать admission-вебхук на CREATE подов, чей Service не отвечает: mutating (инжектор сайдкаров) или validating (политика)",
	"trace apply --failure-policy":                "failurePolicy вебхука: Fail (по умолчанию в admissionregistration/v1) отклоняет запрос при сбое вызова, Ignore пропускает его",
	"trace apply --webhook-timeout-seconds":       "timeoutSeconds вебхука: сколько API-сервер ждёт его ответа (от 1 до 30)",
	"trace apply --scheduler-config":              "файл KubeSchedulerConfiguration (--config у kube-scheduler): плагины, веса, scoringStrategy у NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio)",
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
	"quiz --count":      "число вопросов (0 — все)",
	"quiz --difficulty": "только этот уровень: middle, senior или staff",
	"quiz --exam":       "пробное собеседование: разбор только в конце, затем вердикт по каждой теме относительно уровня senior и образцовые ответы",
	"quiz --id":         "задать именно эти вопросы (id через запятую, см. quiz list)",
	"quiz --mistakes":   "только вопросы, последний ответ на которые набрал меньше 80 %",
	"quiz --new":        "только вопросы, на которые ещё не отвечали",
	"quiz --record":     "вместе с --answers: сохранить проверенные ответы в прогресс",
	"quiz --time-limit": "завершить сеанс через это время, с живым обратным отсчётом (например, «30m»); ответ, начатый к концу времени, отбрасывается",
	"quiz --topic":      "только эти темы (через запятую)",
	"quiz --type":       "только эти типы вопросов: single, multi, order, numeric, text",
	"quiz --weakest":    "сначала самые слабые темы (последние оценки взвешены по извлекаемости FSRS; без ответа считается 0)",
}

// helpRUPending lists the commands whose Long text and flags have no
// Russian yet (their Short is translated, so lists are Russian): their
// help shows the English description. A command leaves this list when
// its entry is complete; a new command must not join it.
var helpRUPending = map[string]bool{
	"version": true, "completion": true, "completion bash": true, "completion fish": true,
	"completion powershell": true, "completion zsh": true, "man": true, "environment": true,
	"trace": true, "trace autoscale": true, "trace watch": true,
	"quiz review": true, "quiz stats": true, "quiz list": true,
	"task": true, "task list": true, "task start": true, "task check": true, "task solution": true,
}
