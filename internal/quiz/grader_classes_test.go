package quiz

import (
	"testing"
)

// Issue 22 §2: each failure class of the free-text grader found on
// answers written blind, with a test of its own. The sentences are ours;
// the concepts are built here so that the tests pin the grader's
// mechanics, not a question of the bank.

// concept builds a one-concept question: says (English patterns; Russian
// ones too when ru is given) and a misconception.
func concept(says, ru, wrong, wrongRu []string) *Question {
	if len(ru) == 0 {
		ru = []string{"заглушка + заглушка"}
	}
	c := Concept{Name: Text{En: "c", Ru: "c"}, Says: Words{En: says, Ru: ru}}
	if len(wrong) > 0 || len(wrongRu) > 0 {
		if len(wrong) == 0 {
			wrong = []string{"placeholder + placeholder"}
		}
		if len(wrongRu) == 0 {
			wrongRu = []string{"заглушка + заглушка"}
		}
		c.Wrong = []Mistake{{Name: Text{En: "m", Ru: "m"}, Says: Words{En: wrong, Ru: wrongRu}}}
	}
	return &Question{ID: "class", Type: TextAns, Rubric: []Concept{c}}
}

func stateOf(q *Question, answer, lang string) string {
	return Grade(q, nil, answer, lang).Checks[0].State
}

type classCase struct {
	answer, lang, want string
}

func runClass(t *testing.T, q *Question, cases []classCase) {
	t.Helper()
	for _, tc := range cases {
		if got := stateOf(q, tc.answer, tc.lang); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.answer, got, tc.want)
		}
	}
}

// Concepts matched by words far apart in a long clause: the words of one
// statement stand near each other; a subject in one sentence part and a
// predicate a dozen words on, past a subordinate clause, is two
// statements.
func TestClassFarApart(t *testing.T) {
	q := concept([]string{"leader + commit|commits"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"the leader commits the entry", "en", Stated},
		{"the leader of the group appends the entry and commits it", "en", Stated},
		{"a leader is elected when the old one stops sending heartbeats because its process crashed or its disk stalled so badly that nothing it writes ever commits", "en", Missing},
	})
}

// "no longer", "nothing + verb", and a negation that belongs to another
// verb do not flip a right statement.
func TestClassNegationOfAnotherVerb(t *testing.T) {
	q := concept([]string{"controller + removes|remove + finalizer"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"when the resource is no longer needed the controller removes the finalizer", "en", Stated},
		{"nothing happens to the object itself until the controller removes the finalizer", "en", Stated},
		{"the delete does not complete because the controller removes the finalizer only after cleanup", "en", Stated},
		// a negation of the statement itself still contradicts it
		{"the controller never removes the finalizer", "en", Contradicted},
		{"the controller no longer removes the finalizer", "en", Contradicted},
	})
	ru := concept([]string{"placeholder + placeholder"}, []string{"контроллер + снимает|убирает + финализатор"}, nil, nil)
	runClass(t, ru, []classCase{
		// "не … пока … не" is "only after": the removal is stated
		{"объект не исчезнет, пока контроллер не снимет финализатор", "ru", Stated},
		{"ничего не удаляется сразу, потому что контроллер снимает финализатор только после очистки", "ru", Stated},
		{"контроллер не снимает финализатор", "ru", Contradicted},
	})
}

// Typo tolerance must not turn one real word into another: "freed" is
// not a typo of "freeze", "limit" not of "lime".
func TestClassTypoRealWords(t *testing.T) {
	q := concept([]string{"pod + freeze|frozen"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"the pod is freezed by the cgroup", "en", Stated},
		{"the pod memory is freed", "en", Missing},
	})
	q = concept([]string{"quorum + majority"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"the quorum is a majorty", "en", Stated}, // a real typo of a long word still matches
	})
	// a negation is only itself: "неё" stems to "не"
	ru := concept([]string{"placeholder + placeholder"}, []string{"компакц + удаля|выбрасыва + истори"}, nil, nil)
	runClass(t, ru, []classCase{
		{"компакция выбрасывает историю до неё", "ru", Stated},
	})
}

// Hedges and warnings name a misconception to warn against it: not a
// misconception stated.
func TestClassWarnings(t *testing.T) {
	q := concept([]string{"defrag + one member|one by one"}, nil, []string{"all|every + member|members + at once"}, nil)
	runClass(t, q, []classCase{
		{"defrag one member at a time. Don't use --cluster, which hits every member at once.", "en", Stated},
		{"defrag one member at a time; a common mistake is to defrag all members at once", "en", Stated},
		{"Never defrag all members at once.", "en", Missing},
		{"defrag all members at once", "en", Misconception},
	})
	ru := concept([]string{"placeholder + placeholder"}, []string{"дефраг + по одному"}, nil, []string{"все|всех + член|члены + сразу"})
	runClass(t, ru, []classCase{
		{"дефрагментируем по одному. Нельзя запускать на все члены сразу.", "ru", Stated},
		{"Частая ошибка — запускать дефраг на все члены сразу.", "ru", Missing},
		{"запускаем дефраг на все члены сразу", "ru", Misconception},
	})
}

// Russian IT slang and English nouns inside Russian sentences.
func TestClassRussianSlang(t *testing.T) {
	q := concept([]string{"scheduler + node"}, []string{"планировщик + узел"}, nil, nil)
	runClass(t, q, []classCase{
		{"шедулер выбирает ноду", "ru", Stated},
		{"scheduler выбирает ноду", "ru", Stated},
		{"планировщик выбирает узел", "ru", Stated},
		{"шедулеру не нашлось подходящей ноды", "ru", Contradicted},
	})
	q = concept([]string{"kubelet + restart|restarts + container"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"кублет рестартит контейнер", "ru", Stated},
		{"kubelet рестартует container", "ru", Stated},
	})
	// two-word slang: "реплика-сет" is a replicaset, "апи-сервер" the api
	// server (a Russian pattern may use the English term)
	q = concept([]string{"placeholder + placeholder"}, []string{"replicaset + созда + под", "api server + хран"}, nil, nil)
	runClass(t, q, []classCase{
		{"реплика-сет создаёт поды", "ru", Stated},
		{"реплика сет создает под", "ru", Stated},
		{"апи-сервер хранит объект", "ru", Stated},
		{"реплика создаёт поды", "ru", Missing},
	})
	// colloquial verbs read as the English term: "выпилить replicas",
	// "овнер поля"; a negation still flips them
	q = concept([]string{"remove|delete + replicas", "hpa + owner"}, []string{"убра|удал + replicas", "hpa + владе"}, nil, nil)
	runClass(t, q, []classCase{
		{"выпилить replicas из манифеста", "ru", Stated},
		{"овнер поля — HPA", "ru", Stated},
		{"replicas не выпиливаем", "ru", Contradicted},
		{"выпить чаю и ждать, пока replicas сойдутся", "ru", Missing},
	})
	// Russian number words read as their digits
	q = concept([]string{"5|five + members"}, []string{"placeholder + placeholder"}, nil, nil)
	runClass(t, q, []classCase{
		{"ставьте пять members", "ru", Stated},
		{"из пяти members можно потерять двух", "ru", Stated},
		{"пятница, members отдыхают", "ru", Missing},
	})
}

// Russian sentences with English nouns and verbs: the English and Russian
// patterns written in parallel are tried as one, so each group may be
// met in either language.
func TestClassMixedLanguages(t *testing.T) {
	q := concept([]string{"controller + removes|remove + finalizer"}, []string{"контроллер + снимает|убирает + финализатор"}, nil, nil)
	runClass(t, q, []classCase{
		{"контроллер снимает finalizer после очистки", "ru", Stated},
		{"потом controller снимает финализатор", "ru", Stated},
		{"контроллер removes финализатор", "ru", Stated},
		{"контроллер не снимает finalizer", "ru", Contradicted},
	})
}

// Keyword lists state nothing, with or without commas; a terse sentence
// with the same terms does.
func TestClassKeywordLists(t *testing.T) {
	q := concept([]string{"finalizer|finalizers + controller + remove|removes|removed"}, []string{"финализатор + контроллер + снима|удал|сня"}, nil, nil)
	runClass(t, q, []classCase{
		{"finalizers, controller, removed, deletionTimestamp, Terminating, operator", "en", Missing},
		{"finalizers controller removed deletionTimestamp Terminating operator", "en", Missing},
		{"финализаторы контроллер удаление снятие deletionTimestamp Terminating оператор", "ru", Missing},
		{"The controller removes its finalizer after cleanup.", "en", Stated},
		{"controller removes finalizer → object gone", "en", Stated},
		{"финализатор снимает контроллер после очистки", "ru", Stated},
	})
	for _, s := range []string{
		"quota-backend-bytes NOSPACE alarm compaction defragmentation disarm etcdctl revision",
		// "read-only" and "CRI-O" are terms, "кубелет" a noun, "None"
		// and "A" values
		"quota-backend-bytes alarm NOSPACE компакция дефрагментация alarm disarm read-only снапшот",
		"кубелет CRI containerd CRI-O shim runc OCI неймспейсы cgroups CNI ядро",
		"headless service clusterIP None StatefulSet serviceName A records SRV records stable network identity CoreDNS pod IP",
	} {
		if !isKeywordList(s) {
			t.Errorf("%q not read as a keyword list", s)
		}
	}
	for _, s := range []string{
		"Kubelet never calls CNI itself post-dockershim",
		"A pod never survives its node's loss without a controller",
		"кублет рестартит контейнер liveness пробы sidecar",
		"Дефрагментация переписывает файл и возвращает свободное место файловой системе",
		"Смотрите container_cpu_cfs_throttled_periods_total",
		"label gone → RS releases pods",
	} {
		if isKeywordList(s) {
			t.Errorf("%q read as a keyword list", s)
		}
	}
}

// One pass definition: the grader's Pass, the FSRS suggestion and the
// report agree (a pass is a suggestion of Good or Easy).
func TestOnePassDefinition(t *testing.T) {
	b := testBank(t)
	for _, tc := range []struct{ id, answer, lang string }{
		{"t-text-pending", "not enough memory on nodes, or a taint without toleration", "en"},
		{"t-text-quorum", "writes need a majority", "en"},
		{"t-order-shutdown", "3 2 1 4", "en"},
		{"t-num-quorum", "3", "en"},
	} {
		q := b.Get(tc.id)
		p := Present(q, 1, 1, tc.lang, 1)
		r := Grade(q, p.Shown, tc.answer, tc.lang)
		auto := AutoRating(q, r)
		a := &Answered{Q: q, P: p, Result: r, Auto: auto, Rating: auto}
		if r.Pass != (auto >= 3) || r.Pass != (a.Score() >= revisitBelow) {
			t.Errorf("%s %q: pass %v, suggestion %v, rated score %v", tc.id, tc.answer, r.Pass, auto, a.Score())
		}
	}
}

// Russian lists: a numeral or an "-ость" noun is no verb.
func TestClassRussianListWords(t *testing.T) {
	for _, s := range []string{
		"Raft кворум большинство лидер фолловеры репликация fsync отказоустойчивость три пять членов",
		"сеть задержка пропускная способность память диск",
	} {
		if !isKeywordList(s) {
			t.Errorf("%q not read as a list", s)
		}
	}
}

// A role swap: the misconception "a pod of higher priority is preempted"
// names the victim, while an answer that says the pod is preempted BY a
// pod of higher priority names the preemptor, the right fact. The last
// group of a misconception pattern is its verb; an object pronoun next to
// it ("preempts it", «его вытеснит») or an agent ("by", «подом») between
// it and the other words makes those words the doer, not the one done to.
func TestClassRoleSwap(t *testing.T) {
	q := concept([]string{"lower + priority + evicted|preempted"}, []string{"меньш|низк + приоритет + вытесн"},
		[]string{"higher|equal + priority + pod|pods + preempt|preempted|preempts|evict|evicted"},
		[]string{"больш|высок|равн + приоритет + вытесн|выселя"})
	runClass(t, q, []classCase{
		// the misconception, stated plainly
		{"a pod of higher priority can be preempted too", "en", Misconception},
		{"the scheduler may preempt pods with equal priority", "en", Misconception},
		{"поды с большим приоритетом тоже вытесняются", "ru", Misconception},
		{"планировщик вытесняет поды с равным приоритетом", "ru", Misconception},
		{"его могут вытеснить, а поды с высоким приоритетом вытесняются первыми", "ru", Misconception},
		// the same words, the higher-priority pod the doer
		{"the nominated pod may still lose the spot: a higher priority pod preempts it", "en", Missing},
		{"it can itself be preempted by a higher priority pod later", "en", Missing},
		{"номинация не гарантия: его вытеснит под с большим приоритетом", "ru", Missing},
		{"под с большим приоритетом потом вытеснит его", "ru", Missing},
		{"он сам может быть вытеснен подом с более высоким приоритетом", "ru", Missing},
	})
}

// A short heading before a colon is the subject of the clause after it
// ("Компакция: дропает старые ревизии"); a negation is no heading, and a
// list after a heading is still a list.
func TestClassHeadings(t *testing.T) {
	q := concept([]string{"compaction + drops|removes + revisions"}, []string{"компакц + удаля|дроп + ревизи"}, nil, nil)
	runClass(t, q, []classCase{
		{"Compaction: drops old revisions; defrag: returns space.", "en", Stated},
		{"Компакция: дропает MVCC-ревизии < N, файл не худеет", "ru", Stated},
		{"Компакция: не удаляет ревизии", "ru", Contradicted},
		{"Compaction: the apiserver triggers it. It drops old revisions.", "en", Missing},
		{"Компакция: ревизии удаление дроп bbolt freelist NOSPACE", "ru", Missing},
	})
	if cls := clauses("Нет: компакция удаляет ревизии"); len(cls) != 2 {
		t.Errorf("a negation before a colon read as a heading: %d clauses", len(cls))
	}
}

// A misconception supposed to show what would go wrong ("if … would",
// «если бы … бы»), or named in advice («Надо после apply ждать…»), or
// allowed "only after" a check, is not asserted: not marked ✗. Stated
// plainly, it is.
func TestClassSuppositions(t *testing.T) {
	q := concept([]string{"placeholder + placeholder"}, []string{"placeholder + placeholder"},
		[]string{"components|controllers + call|talk + each other|directly"}, []string{"компонент|контроллер + ходят|вызывают + напрямую|друг друга"})
	runClass(t, q, []classCase{
		{"If components called each other directly they would have to know each other's addresses.", "en", Missing},
		{"Если бы компоненты ходили напрямую друг к другу, им пришлось бы знать адреса.", "ru", Missing},
		{"Components call each other directly over gRPC.", "en", Misconception},
		{"Компоненты ходят напрямую друг к другу.", "ru", Misconception},
	})
	q = concept([]string{"placeholder + placeholder"}, []string{"placeholder + placeholder"},
		[]string{"apply + waits|wait + rollout|ready"}, []string{"apply + ждать|ждет + выкатк|готов"})
	runClass(t, q, []classCase{
		{"Надо после apply ждать готовности через kubectl rollout status.", "ru", Missing},
		{"apply ждёт готовности подов.", "ru", Misconception},
	})
	q = concept([]string{"placeholder + placeholder"}, nil, []string{"remove|removing + finalizer"}, nil)
	runClass(t, q, []classCase{
		// the ellipsis inside the brackets ends no sentence, so "only OK" warns the whole clause
		{"Removing the finalizer (kubectl patch ... -p '{\"metadata\":{\"finalizers\":null}}') is only OK after the cleanup is done.", "en", Missing},
		{"Removing the finalizer is the fix.", "en", Misconception},
	})
}

// A negation inside a match that a clause opener and "and" fence off
// belongs to another verb ("if it has not voted … and"); "&&" reads as
// "and". A negation of the subject's own predicate still counts.
func TestClassEmbeddedNegation(t *testing.T) {
	q := concept([]string{"vote|votes|grant + up to date + log"}, []string{"компакц|дефрагмент + освобожда + мест"}, nil, nil)
	runClass(t, q, []classCase{
		{"Grant the vote if it has not voted and the log is up to date", "en", Stated},
		{"grant iff not voted this term && log up to date", "en", Stated},
		{"A member does not grant its vote to a candidate whose log is up to date", "en", Contradicted},
		{"компакция и дефрагментация не нужны — disarm сам освобождает место", "ru", Contradicted},
	})
}

// «не тот», «не туда» mean "the wrong one": no negation.
func TestClassWrongOne(t *testing.T) {
	q := concept([]string{"placeholder + placeholder"}, []string{"сирот|бесхоз + под + забер|забра"}, nil, nil)
	runClass(t, q, []classCase{
		{"бесхозные поды может забрать не тот контроллер", "ru", Stated},
		{"бесхозные поды контроллер не заберёт", "ru", Contradicted},
	})
}

// Keyword lists that quote a message: a long run of terms with one
// function word per nine terms or fewer ("… connection is not ready …"
// inside a list) states nothing; "--grace=0" is a flag, not an operator.
func TestClassKeywordListsWithAMessage(t *testing.T) {
	for _, s := range []string{
		"scheduler queue activeQ backoffQ unschedulablePods PreEnqueue QueueingHint flush gate plugin node is not ready event requeue preemption nominatedNodeName",
		"etcd raft leader follower heartbeat timeout term vote no leader WAL fsync snapshot compaction defrag quota alarm disarm member learner",
		"kubectl drain cordon --grace-period=0 --force PDB eviction DaemonSet emptyDir",
	} {
		if !isKeywordList(s) {
			t.Errorf("%q not read as a keyword list", s)
		}
	}
	for _, s := range []string{
		// twelve terms with two function words is still a sentence
		"kubelet restarts the crashed container with exponential backoff capped at five minutes in place",
		"replicas = 3 so the controller keeps three pods running",
	} {
		if isKeywordList(s) {
			t.Errorf("%q read as a keyword list", s)
		}
	}
}

// A negated verb of loss or harm that the pattern did not match says what
// stays or is safe; it does not deny the statement.
func TestClassNegatedLoss(t *testing.T) {
	q := concept([]string{"old + replicaset|rs"}, []string{"стар + replicaset|rs"}, nil, nil)
	runClass(t, q, []classCase{
		{"the old ReplicaSet never disappears, it is scaled to zero", "en", Stated},
		{"старый ReplicaSet никуда не девается, он просто масштабирован в ноль", "ru", Stated},
		{"the old ReplicaSet is not kept", "en", Contradicted},
		{"старый ReplicaSet не сохраняется", "ru", Contradicted},
	})
	q = concept([]string{"rerun|repeat + same result|safe|idempotent"}, []string{"повторн + тот же результат|безопас|идемпотент"}, nil, nil)
	runClass(t, q, []classCase{
		{"повторный прогон безопасен и ничего не ломает", "ru", Stated},
		{"a repeated rerun is safe, it does not break anything", "en", Stated},
		{"a rerun is not safe", "en", Contradicted},
	})
}

// "without"/«без» with a noun after every matched word qualifies the
// statement; before a matched word, or before an action ("without
// waiting"), it negates.
func TestClassTrailingWithout(t *testing.T) {
	q := concept([]string{"ignore + admit|admits|created"}, []string{"ignore + пропуск|созда"}, nil, nil)
	runClass(t, q, []classCase{
		{"with Ignore the pods are created without the injected proxy", "en", Stated},
		{"при Ignore поды тихо создаются без прокси", "ru", Stated},
		{"with Ignore the pods are created without waiting for the webhook", "en", Contradicted},
		{"with Ignore no pods are created", "en", Contradicted},
	})
	q = concept([]string{"commit|commits + majority"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"the leader commits without a majority", "en", Contradicted},
	})
}

// One negation said in both languages ("no quorum ни у кого") is one
// negation, not two that cancel.
func TestClassNegationInBothLanguages(t *testing.T) {
	q := concept([]string{"no + side + quorum"}, []string{"ни одна + сторон + кворум"}, nil, nil)
	runClass(t, q, []classCase{
		{"split 3/3 → no quorum ни у одной стороны", "ru", Stated},
		{"ни одна сторона не has quorum", "ru", Stated},
	})
}

// A fix named as the subject and then dismissed ("X and Y are not
// needed") is negated, even past the two words after the match that the
// scope reaches.
func TestClassDismissals(t *testing.T) {
	q := concept([]string{"drain + cordon|node"}, []string{"дрейн|drain + cordon|нод"}, nil, nil)
	runClass(t, q, []classCase{
		{"drain and cordon the node first", "en", Stated},
		{"a drain of the node is really not needed here", "en", Contradicted},
		{"drain the node and then it is not needed to wait", "en", Stated},
		{"drain ноды здесь вообще не нужен", "ru", Contradicted},
		{"drain and cordon of the node are unnecessary", "en", Contradicted},
	})
}

// A misconception is matched without typo tolerance: one letter turns
// a real word into another ("picks" and "packs"), and a right answer must
// never be marked ✗ for a word it does not contain. A concept still
// forgives the typo.
func TestClassMisconceptionWithoutTypos(t *testing.T) {
	q := concept([]string{"spread|spreads + pods|pod"}, nil, []string{"default + packs|packing"}, nil)
	runClass(t, q, []classCase{
		{"by default it picks the emptiest node and spreads pods", "en", Stated},
		{"the default packs the pods onto full nodes", "en", Misconception},
	})
	q = concept([]string{"scheduler + binds|assigns"}, nil, nil, nil)
	runClass(t, q, []classCase{
		{"the schedulr binds the pod", "en", Stated},
	})
}

// The negation a pattern asks for ("no|not + guarantee") does not reach
// into a clause that "that"/«что» opens after another matched word, nor
// across "and" to a verb of another statement.
func TestClassPatternNegationScope(t *testing.T) {
	q := concept([]string{"not|no + guarantee|guaranteed"}, []string{"не|нет + гарантир"}, nil, nil)
	runClass(t, q, []classCase{
		{"there is no guarantee the pod lands on that node", "en", Stated},
		{"the landing is not guaranteed", "en", Stated},
		{"the scheduler guarantees that no budget is ever broken", "en", Missing},
		{"планировщик гарантирует, что ни один бюджет не нарушен", "ru", Missing},
		{"no victim survives and the preemptor is guaranteed the node", "en", Missing},
	})
}

// A colon inside a name ("system:serviceaccount:ci:bot", "nginx:1.27")
// splits no clause; a colon before a space does.
func TestClassColonInsideAName(t *testing.T) {
	q := concept([]string{"rbac + create|allows"}, []string{"rbac + create|разреш"}, nil, nil)
	runClass(t, q, []classCase{
		{"RBAC checks whether system:serviceaccount:ci:bot may create deployments", "en", Stated},
		{"RBAC проверяет у system:serviceaccount:ci:bot право create", "ru", Stated},
		{"RBAC: nothing else, the webhook allows it", "en", Missing},
	})
}

// A clause that names its subject by a pronoun ("…, and it creates a
// new one") is read with the clause before it in the same sentence, for a
// concept, when neither holds a negation.
func TestClassPronounSubject(t *testing.T) {
	q := concept([]string{"replicaset + creates|create"}, []string{"replicaset|rs + созда"}, nil, nil)
	runClass(t, q, []classCase{
		{"The ReplicaSet counts one pod too few, and it creates a replacement.", "en", Stated},
		{"У ReplicaSet теперь на один под меньше, и он сразу создаёт новый.", "ru", Stated},
		// another sentence, or a negation in either part: no join
		{"The ReplicaSet counts one pod too few. It creates a replacement.", "en", Missing},
		{"The ReplicaSet counts one pod too few, and it does not create a replacement.", "en", Missing},
	})
}

// A heading before a colon whose next word is a contrast word ("Let me
// think: but …", «Сразу подумаю: а …») closes the heading's clause alone;
// grading it must not fail (a blind answer once panicked here).
func TestClassHeadingClosedByContrast(t *testing.T) {
	q := concept([]string{"snapshot + newer|fresher"}, []string{"снапшот + свеже|новее"}, nil, nil)
	runClass(t, q, []classCase{
		{"First thought: but the survivor's data is newer than the snapshot.", "en", Stated},
		{"Сразу подумаю: а у уцелевшего данные свежее вчерашнего снапшота.", "ru", Stated},
		{"Сразу подумаю: а", "ru", Missing},
	})
}
