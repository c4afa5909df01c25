// Package quiz is the interview trainer behind `k8sexplain quiz`: the
// question bank model and its validation, the question types, question
// selection and sessions, prompters (terminal, plain lines, scripted),
// spaced repetition with FSRS and the progress store.
//
// Question types plug in: each is a Kind in its own file (type_single.go,
// type_multi.go, type_order.go, type_numeric.go, type_text.go) holding
// everything that differs per type — its schema check, presentation,
// terminal prompt, grader, feedback lines and model answer — and the
// registry (kinds in kind.go) lists them. The rest of the package never
// switches on a question's type.
//
// The model: a Question (loaded from YAML, see Question for the schema) is
// shown as a Presentation, the learner's answer comes back as one line of
// text in a documented format (the same format the non-terminal mode reads
// and the --answers file holds), a grader turns it into a Result with a score
// in [0, 1], and the result suggests an FSRS rating (AutoRating). The
// feedback always shows the model answer; then the learner confirms or
// changes the rating (Session.Rate, RatingChoices: any rating for free
// text, only a lower one for the exactly graded types), or wrote it with
// the answer ("2 #hard", SplitRating; `rating:` in an answers file). The
// rating confirmed is the verdict everywhere (Answered.Score, RatedScore,
// Answered.Verdict): FSRS, the log's score, the report, --mistakes,
// --weakest and stats. An empty answer or "?" reveals the model answer
// (Reveal) without calling it wrong. A pass is one definition for the
// grader, the eval test, the suggestion and the report: a suggested
// rating of Good or Easy (Grade). Every graded answer is appended to the
// review log before the next question is asked; Ctrl-C at the rating
// prompt keeps the answer with its automatic rating, so an interrupted
// session loses nothing.
//
// The learner loop (session.go, report.go, cmd/quiz.go): unreadable
// answers are asked again with the expected form (Session.Reask); drills
// select weakest topics first, mistakes only, new only, by id or type
// (Selection); without --seed a session's new questions are drawn with a
// seed from the clock and the progress (SessionSeed); an exam has an
// optional deadline shown as a countdown in each question (on a terminal,
// live on the top row, ticking every second while the learner types;
// countdown.go), a verdict per topic against the senior bar (BarVerdict)
// and every model answer at the end; when the time runs out mid-answer the
// prompter returns ErrTimeUp and the answer in progress is dropped (the
// question counts as not reached); in line mode the deadline is checked
// between answers; --answers records nothing unless --record.
//
// `see:` teaches (question.go, validate.go): each question carries
//
//	see:
//	  run: "k8sexplain trace crash --reason oom"
//	  look:
//	    en: "the kill with `OOMKilled` and exit code `137`, then ..."
//	    ru: "убийство с `OOMKilled` и кодом выхода `137`, затем ..."
//	  doc: "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/"
//
// run is a command line of the simulator with the most specific flags
// that show the topic, on the built-in examples only (it runs from any
// directory); look says what to find in its output, and text in backticks
// must occur in that output (cmd's TestQuizSeeLookQuotesOutput runs every
// line); where no built-in command shows the phenomenon (static pods,
// etcd defragmentation, server-side apply...) look says so and names the
// nearest thing the command does show; doc is the upstream page on an
// https URL of a site in DocHosts. The form is strict (an object with
// exactly these keys; the old one-string form no longer loads), and the
// feedback, the report and `quiz list` show all three.
//
// Deliberately left out: networked sync, per-user parameter optimisation of
// FSRS (the default weights are used), and natural-language understanding
// beyond rubric concepts — the free-text grader checks that key concepts
// are stated (with polarity), it does not judge the argument.
//
// # Free-text rubrics
//
// A `type: text` question lists concepts; each is stated by any one of its
// `says` patterns and failed by any of its `wrong` patterns (named
// misconceptions):
//
//	rubric:
//	  - name: {en: "a write commits once a majority has it", ru: "запись коммитится, когда её сохранило большинство"}
//	    says:
//	      en: ["majority|quorum|more than half + commit|acknowledge|persist"]
//	      ru: ["большинств|кворум|больше половины + коммит|подтвержд|сохран"]
//	    wrong:
//	      - name: {en: "any single member can accept writes", ru: "любой участник может сам принять запись"}
//	        says:
//	          en: ["any|every|single + member|node + accept|commit"]
//	          ru: ["любой|каждый + участник|член|нода|узел + принима|коммит"]
//	pass: 2
//
// Both languages are required in every `says`; the patterns of both
// languages are tried on every answer (learners mix them), and so is,
// for a `says`, the n-th English pattern joined with the n-th Russian one
// when both have as many groups: each group takes the alternatives of
// both ("контроллер removes финализатор"). Write the two lists in
// parallel.
//
// A pattern is GROUPS joined by " + " (space, plus, space: "n/2+1" stays one
// term); a group is ALTERNATIVES joined by "|"; an alternative is a word or
// a phrase. Every pattern has at least two groups — a subject and a
// predicate — so a list of terms never states a concept. A pattern matches
// when every group matches inside ONE clause of the answer, in any order,
// on distinct words.
//
// Words: the answer and the pattern are split into words at anything that
// is not a letter or digit ("kube-proxy" is "kube proxy", "doesn't" is
// "doesn t", "floor(n/2)+1" is "floor n 2 1"), lower-cased, ё read as е,
// and stemmed with Snowball (English or Russian by script). A pattern word
// matches an answer word with the same stem; or, if it has 4+ letters (3+
// in Cyrillic), when it begins the answer word or its stem ("подтвержд"
// matches "подтверждает", "commit" matches "committed"); or with one typo
// when it has 5+ letters. Negation words and numbers match only exactly. A
// phrase matches its words in order with at most one extra word between.
// Russian IT slang and transliterations also read as the English term
// (ruSlang in slang.go: "шедулер" is "scheduler", "ноду" is "node",
// "выпилить" is "remove"), and Russian number words read as digits
// ("пяти" is "5"), so English patterns meet Russian speech. The words of one
// match stand at most 12 apart (8 for a misconception), plus 2 per group
// beyond two.
//
// Clauses: an answer is split at sentence ends (". " or a final dot, "!",
// "?", new lines), at ";" and ":" outside parentheses (a colon only
// before a space or the end: "system:serviceaccount:ci:bot" is one name;
// except after a heading of one to three words without a negation, which stays the
// subject of what follows: "Компакция: дропает старые ревизии",
// "Fix: drop replicas from the manifest"), at commas outside
// parentheses unless the next word opens a subordinate clause of the same
// statement (when, once, until, unless, because, since, if, so, which,
// that, after, before, as, where, who, till, otherwise; когда, если, пока,
// потому, так, поэтому, чтобы, который…, что, где, после, прежде, до,
// иначе, то, лишь, только, как, ведь, значит; hence, thus, therefore),
// and at the contrast conjunctions
// but, however, whereas, while, although, though, yet, а, но, однако,
// хотя, зато (dropped). "rather than" and "instead of" split too and
// negate the clause after them ("use informers rather than polling").
// A clause of one sentence that opens with a subject pronoun (it, they;
// он, она, оно, они; after and/then/so, и/а/затем/потом/тогда) is also
// read joined to the clause before it, for a concept, when neither holds
// a negation ("…, and it creates a new one").
// A clause of six or more terms without a function word or a Russian verb
// (operators such as "→", "=", "+" or a spaced dash make it a statement)
// is a keyword list and states nothing, with or without commas; so is a
// run of twelve terms or more with fewer than one function word per
// nine ("… PLEG is not healthy 3m threshold …"); an "=" inside a term
// ("--cascade=orphan") is no operator (after a
// heading, the words after the colon are checked; "read-only", "None" or
// "A records" inside a clause are terms, not function words, and
// "кубелет" is a noun, not a verb).
//
// Polarity: the words a pattern matched plus up to five before and two
// after (not across and/и/also/также, nor across a comma, dash, slash or
// bracket, nor across a word that opens a clause of its own: because,
// since, when, once, if, so, which, who, where, after, before…; потому,
// поэтому, когда, если, чтобы, который…) are checked for negations the
// pattern did not match itself ("no longer", "nothing" and "nobody" reach
// only the two words after them):
// not, no, never, none, nothing, nobody, nowhere, without, cannot,
// neither/nor (once), n't and its apostrophe-less forms, stops/stopped/
// ceases; не, нет, ни, никогда, нельзя, никто, ничто, ничего, никак, нигде,
// никакой…, невозможно…, перестаёт/прекращает…, без. Negations less than
// four words apart form one cluster whose parity counts ("no write commits
// without a majority" is positive); any odd cluster negates. Russian
// concord words count once in the scope ("ни одна запись не коммитится" is
// one negation; none if the pattern matched one of them), "без" each time;
// "не … ли"/"нет ли" is an indirect question, «не тот», «не туда» mean
// "the wrong one", neither is a negation. "not …
// until/unless" and "пока … не" mean "only after" and cancel the negation.
// "None" right after "clusterIP" is a value. A negation between the
// matched words that a clause opener and and/и (or a comma, dash,
// bracket) fence off on both sides belongs to another verb ("grant the
// vote if it has not voted and the log is up to date"); "&&" reads as
// "and". A negation before a loss verb the pattern did not match
// ("never disappears", «никуда не делся», «ничего не ломает») says what
// stays or is safe and does not count; "without"/«без» and a noun after
// every matched word qualify the statement ("created without the
// sidecar"; "without waiting…" still negates); a negation said in both
// languages ("no quorum ни у одной стороны") counts once when the pattern
// matched one of them; a dismissal up to five words after the match
// ("compaction and defrag are not needed", «… не нужны», "unnecessary")
// negates it. A negated scope CONTRADICTS
// the concept: it is not stated (so a negated answer earns no pass), but
// the checklist shows it as "not recognised", never as the opposite — a
// negation read around a right sentence is no proof. A pattern that
// itself contains a negation ("no|not + add + tolerance") expects it. Of several ways a pattern matches one clause, a
// `says` pattern takes a positive one if any, a `wrong` pattern a negated
// one if any (a misconception counts only when nothing negates it). A
// concept stated in one clause and contradicted in another counts as
// stated (an answer may describe the failure, then the fix).
//
// Words in detail: "x > y" reads as "x more y" (a comparison; "->" and
// "=>" are arrows). A typo is allowed when the pattern word has 5+ letters
// and the answer word 4+; on stems only when both stems have 6+ letters
// ("like" is not "live", "freed" is not "freeze").
//
// Misconceptions: a `wrong` pattern is matched without typo tolerance (a
// typo turns real words into each other: "picks" is not "packs", and a
// right answer must never be marked ✗ for it); matched with positive
// polarity it fails
// its concept even if a `says` pattern matched, and the feedback names it
// (✗, quoted, the only case where it says "Wrong"). A sentence that warns
// ("a common mistake", "don't…", "never…", "bad idea", "last resort";
// "ошибка", "нельзя…", "не стоит", "в крайнем случае"…; "only OK
// after…") states no misconception; nor does a clause that supposes it to
// show what would go wrong (after "if"/"если" in the conditional mood:
// "if components called each other directly they would…", «если бы…
// бы»), nor advice («Надо после apply ждать…»). A misconception pattern ends with its verb group: when an
// object pronoun stands next to the verb ("a higher-priority pod preempts
// it", «его вытеснит под с большим приоритетом») or an agent word before
// the other words ("preempted by a higher-priority pod", «вытеснен подом…»),
// those words name the doer, not the one the misconception says is done
// to, and the misconception does not match (roleSwapped).
//
// Scoring: score = stated concepts / all concepts; full credit (Correct)
// only when every concept is stated and no misconception matched; a pass
// needs `pass` concepts stated (all by default). The automatic FSRS rating
// of a free-text answer: full credit Easy, a pass Good, some concepts Hard,
// none Again (the learner confirms or changes it: the rating is the
// verdict).
//
// The labelled evaluation sets in testdata/eval (dev/, dev-old/ and the
// blind dev-blind/, dev-blind2/ and dev-blind3/ (former holdouts) to tune
// on; holdout/, written blind and never tuned on,
// added at merge) measure correct answers suggested as a pass, correct
// answers marked ✗ and negative answers suggested as a pass; see
// eval_test.go and README.
package quiz
