package cmd

// The Russian help catalogue (issue 27 §4): --help, man pages and shell
// completions' descriptions under --lang ru (or K8SEXPLAIN_LANG=ru, or
// lang: ru in the config file). English stays the default and the source
// text; a Russian entry says the same, in the glossary's words
// (docs/glossary.md).
//
// Adding a command is one entry in helpRU (keyed by its path without
// "k8sexplain", "" for the root) and, for each new flag, one in flagRU
// (help_ru_flags.go) unless its English usage already has one.
// TestEveryCommandHasRussianHelp fails when a command, its description or
// a flag has no Russian text.

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
	"version": {Short: "Показать версию k8sexplain"},
	"completion": {Short: "Создать скрипт автодополнения для указанной оболочки",
		Long: `Создаёт скрипт автодополнения k8sexplain для указанной оболочки.
Как подключить созданный скрипт, сказано в справке каждой подкоманды.`},
	"help": {Short: "Справка по любой команде", Long: `help показывает справку по любой команде.
Наберите k8sexplain help [путь к команде], чтобы увидеть её полностью.`},
	// The completion commands' Long texts are cobra's (completions.go,
	// cobra v1.10), said in Russian.
	"completion bash": {Short: "Создать скрипт автодополнения для bash",
		Long: `Создаёт скрипт автодополнения для оболочки bash.

Скрипту нужен пакет bash-completion. Если он ещё не установлен, его можно
поставить менеджером пакетов вашей ОС.

Чтобы включить автодополнение в текущем сеансе оболочки:

	source <(k8sexplain completion bash)

Чтобы включить его во всех новых сеансах, выполните один раз:

#### Linux:

	k8sexplain completion bash > /etc/bash_completion.d/k8sexplain

#### macOS:

	k8sexplain completion bash > $(brew --prefix)/etc/bash_completion.d/k8sexplain

Настройка подействует в новом сеансе оболочки.`},
	"completion fish": {Short: "Создать скрипт автодополнения для fish",
		Long: `Создаёт скрипт автодополнения для оболочки fish.

Чтобы включить автодополнение в текущем сеансе оболочки:

	k8sexplain completion fish | source

Чтобы включить его во всех новых сеансах, выполните один раз:

	k8sexplain completion fish > ~/.config/fish/completions/k8sexplain.fish

Настройка подействует в новом сеансе оболочки.`},
	"completion powershell": {Short: "Создать скрипт автодополнения для powershell",
		Long: `Создаёт скрипт автодополнения для powershell.

Чтобы включить автодополнение в текущем сеансе оболочки:

	k8sexplain completion powershell | Out-String | Invoke-Expression

Чтобы включить его во всех новых сеансах, добавьте вывод этой команды
в свой профиль powershell.`},
	"completion zsh": {Short: "Создать скрипт автодополнения для zsh",
		Long: `Создаёт скрипт автодополнения для оболочки zsh.

Если автодополнение в вашей оболочке ещё не включено, его нужно
включить. Для этого достаточно один раз выполнить:

	echo "autoload -U compinit; compinit" >> ~/.zshrc

Чтобы включить автодополнение в текущем сеансе оболочки:

	source <(k8sexplain completion zsh)

Чтобы включить его во всех новых сеансах, выполните один раз:

#### Linux:

	k8sexplain completion zsh > "${fpath[1]}/_k8sexplain"

#### macOS:

	k8sexplain completion zsh > $(brew --prefix)/share/zsh/site-functions/_k8sexplain

Настройка подействует в новом сеансе оболочки.`},
	"man": {Short: "Записать в каталог DIR man-страницу (раздел 1) для каждой команды",
		Long: `Записывает k8sexplain.1, k8sexplain-trace.1, k8sexplain-trace-apply.1 … из того же текста, что и
--help (собственным генератором man(7) в k8sexplain). Дата в них — SOURCE_DATE_EPOCH, если переменная
задана, иначе постоянная, поэтому два запуска дают одинаковые файлы.`},
	"environment": {
		Short: "Переменные окружения, которые меняют поведение k8sexplain",
		Long: `k8sexplain читает эти переменные окружения.

K8SEXPLAIN_<ФЛАГ>: значение глобального флага, когда его не задаёт командная строка; имя флага
в верхнем регистре, - и . заменены на _ (K8SEXPLAIN_LANG=ru, K8SEXPLAIN_FORMAT=markdown,
K8SEXPLAIN_COLOR=never, K8SEXPLAIN_SEED=7, K8SEXPLAIN_VERBOSE=true). Так же работает ключ файла
конфигурации (quiz.state-dir — это K8SEXPLAIN_QUIZ_STATE_DIR). Порядок: флаг, окружение, файл
конфигурации, значение по умолчанию.

XDG_CONFIG_HOME: файл конфигурации — $XDG_CONFIG_HOME/k8sexplain/config.yaml, иначе
~/.config/k8sexplain/config.yaml (HOME).

NO_COLOR: любое непустое значение отключает цвет при --color auto (no-color.org); явный
--color always всё равно раскрашивает вывод.

TERM: TERM=dumb отключает цвет при --color auto.

K8SEXPLAIN_PAGER, PAGER: программа постраничного просмотра длинного вывода в терминале, в этом
порядке; less -FRX, если не задана ни одна. Пустая K8SEXPLAIN_PAGER или «cat» отключает постраничный
просмотр. Вывод в канал или файл никогда не листается, как и вывод, который помещается на экране
(по его высоте, иначе по LINES).

COLUMNS: ширина, по которой переносится текстовый вывод в терминале, если терминал её не сообщает.
Вывод в канал или файл по ширине терминала не переносится.

SOURCE_DATE_EPOCH: дата, которую k8sexplain man пишет в man-страницы (воспроизводимые сборки).

GOMEMLIMIT: мягкий предел памяти среды выполнения Go. Если переменная не задана, команды trace
работают с пределом 950MiB, и самый большой кластер (5 000 нод, 150 000 подов) укладывается в 1 GiB
памяти; задайте её, чтобы выбрать другой предел (GOMEMLIMIT=off — без предела).`,
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
	"trace autoscale": {Short: "HorizontalPodAutoscaler под кривой нагрузки: метрики, формула числа реплик, окна и политики, каждая синхронизация",
		Long: `Применяет манифесты, ждёт, пока все поды станут Ready, создаёт HorizontalPodAutoscaler (autoscaling/v2)
так, как его создал бы ` + "`kubectl autoscale deployment NAME --min --max --cpu`" + ` (если в манифестах его
нет), и задаёт подам деплоймента кривую нагрузки на CPU. metrics-server снимает метрики каждые 15 с;
контроллер HPA синхронизируется каждые 15 с (--horizontal-pod-autoscaler-sync-period): читает
подресурс scale цели и CPU подов из API метрик ресурсов, вычисляет
desiredReplicas = ceil(currentReplicas × currentUtilization / target) с порогом 0,1 (tolerance) и
правилами для неготовых подов и подов без метрик, применяет behavior из v2 (вверх — наибольшее из
100 % и 4 подов за 15 с; вниз — окно стабилизации 300 с, затем 100 % за 15 с) и границы min/max и
записывает scale (PUT). Deployment масштабирует свой ReplicaSet без последовательного обновления.
Таблица показывает каждую синхронизацию.

Нагрузка — процент от суммы запросов CPU начальных реплик; она делится поровну между готовыми
подами (сервис отправляет им трафик) и не превышает лимит CPU каждого пода.`,
	},
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
	"trace apply-modes": {Short: "Владение полями и конфликты 409 в server-side apply, трёхстороннее слияние client-side apply — на одном Deployment",
		Long: `Применяет манифесты (файлы аргументами или через -f; по умолчанию examples/app.yaml), кроме одного
Deployment: его история применяет сама и меняет вторым писателем, ` + "`kubectl scale`" + `.

--mode server (по умолчанию): kubectl apply --server-side отправляет PATCH с типом
application/apply-patch+yaml и ?fieldManager=kubectl; API-сервер сливает его и записывает в
metadata.managedFields, кто каким полем владеет. Когда spec.replicas забрал ` + "`kubectl scale --replicas=N`" + `
(менеджер «kubectl», подресурс scale), повторное применение значения из манифеста отклоняется с 409 Conflict
("Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1:
.spec.replicas"); применение живого значения делает поле общим; удаление replicas из манифеста отпускает
его (значение остаётся, пока им владеет другой менеджер); --force-conflicts забирает его; повторное удаление,
когда других владельцев нет, удаляет поле, и возвращается значение по умолчанию, 1.

--mode client: kubectl apply хранит манифест в аннотации kubectl.kubernetes.io/last-applied-configuration
и отправляет PATCH трёхстороннего strategic merge из этой аннотации, манифеста и живого объекта. Удаление
replicas из манифеста удаляет spec.replicas даже после ` + "`kubectl scale`" + ` (оно возвращается к 1), а метка,
которую задал только ` + "`kubectl label`" + `, остаётся.`,
		Example: `  k8sexplain trace apply-modes
  k8sexplain trace apply-modes -f examples/app.yaml --scale 5
  k8sexplain trace apply-modes --mode client
  k8sexplain trace apply-modes examples/app.yaml --mode client --lang ru --format markdown`,
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
	"trace watch": {Short: "Контроллеры, которые делают LIST в цикле, против информеров, которые делают LIST один раз и затем WATCH: нагрузка на API-сервер",
		Long: `Разыгрывает три устройства одних и тех же контроллеров на симулированном кластере в течение виртуальной
минуты: цикл, который делает LIST всех подов и нод и засыпает на --poll-interval, информеры client-go
(Reflector, который один раз делает LIST с resourceVersion=0, а затем WATCH) и информеры на потоковом
списке (streaming list), как по умолчанию в v1.37 (один WATCH с sendInitialEvents=true вместо первого
LIST). Печатает число запросов в секунду, байты, которые сериализует API-сервер (измерены по JSON
объектов Pod и Node из k8s.io/api, построенных так же, как их строит симулятор), память, которую
API-сервер держит под ответы LIST, ограничение частоты запросов на стороне клиента (QPS 5 / burst 10
у client-go) и то, через сколько после изменения пода каждое устройство это замечает.`,
		Example: `  k8sexplain trace watch                                   # 50 контроллеров, 10 000 подов, 500 нод
  k8sexplain trace watch --controllers 50 --pods 10000 --nodes 500
  k8sexplain trace watch --poll-interval 5s                 # нагрузка меньше, замечает позже
  k8sexplain trace watch --controllers 10 --pods 1000 --nodes 20 --poll-interval 100ms   # упирается в ограничение частоты
  k8sexplain trace watch --lang ru --format markdown > watch.md
  k8sexplain trace watch --format mermaid`,
	},
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
	"task": {Short: "Практические задания: напишите манифесты, оценка — по состоянию, в котором окажется симулированный кластер",
		Long: `Задания в духе практического экзамена. «task start ID» описывает исходный кластер (ноды, объекты,
иногда сбой, который случится) и цель; вы пишете манифесты; «task check ID FILE...» применяет их к
симулированному кластеру из этого исходного состояния, даёт разыграться действию задания (обновлению,
зависшему контейнеру) и оценивает состояние, в котором оказался кластер, а для целей о процессе — и
изменения, через которые он прошёл (например, «ни разу не меньше 4 доступных подов»), по объектам,
которые хранит API-сервер. Невыполненное условие говорит, когда оно нарушилось, и показывает шаги
трассы, которые это объясняют: событие FailedScheduling от планировщика, отказ квоты, провал пробы.

Прогресс сохраняется в хранилище тренажёра (quiz stats показывает задания по темам; интервальное
повторение возвращает задание). Эталонное решение показывается после первой проверки («task solution
ID»). Манифест, который трогает то, что задание запрещает (ноды, квоту, исходный объект), отклоняется
с указанием нарушенного правила (код выхода 1). Проверка, которая выполнилась, завершается с кодом 0,
прошло решение или нет; --format json сообщает это в поле "passed".`,
	},
	"task list":  {Short: "Список заданий с темой, уровнем и вашим статусом"},
	"task start": {Short: "Описание задания: исходный кластер, что произойдёт дальше, цель и её условия"},
	"task check": {Short: "Запустить ваши манифесты из исходного состояния задания и оценить кластер, который получится"},
	"task solution": {
		Short: "Показать эталонное решение (после первой проверки)",
	},
}
