package quiz

import (
	"strings"
	"unicode"
)

// Keyword lists (issue 22 §2): "finalizers deletionTimestamp controller
// patch Terminating" names the right terms and states nothing; with
// commas each term is a clause of its own and no two-group pattern
// matches, but without them the list is one long clause in which every
// pattern finds its words. A sentence, however terse, carries function
// words (articles, prepositions, auxiliaries, pronouns, conjunctions);
// a run of six or more words with fewer than one function word per eight
// is read as a list and states nothing.

// functionWords are the English and Russian words that show a sentence
// rather than a list of terms.
var functionWords = map[string]bool{}

func init() {
	for _, w := range []string{
		// English
		"a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "to", "of", "in", "on", "at",
		"for", "by", "with", "from", "into", "onto", "over", "under", "and", "or", "but", "it", "its", "this", "that",
		"these", "those", "there", "here", "as", "when", "if", "then", "than", "so", "not", "no", "do", "does", "did",
		"can", "could", "will", "would", "should", "must", "may", "might", "has", "have", "had", "which", "who",
		"what", "where", "why", "how", "only", "also", "just", "because", "since", "until", "after", "before",
		"while", "each", "every", "all", "any", "some", "one", "you", "your", "we", "our", "they", "their", "them",
		"he", "she", "his", "her", "i", "my", "me", "us", "via", "per", "up", "out", "off", "down", "once", "both",
		"either", "neither", "nor", "too", "very", "still", "yet", "again", "more", "less", "most", "same", "other",
		"get", "gets", "got", "let", "lets", "make", "makes", "t", "s", "don", "doesn", "isn", "won", "cannot",
		"whose", "whom", "nobody", "nothing", "never", "none", "without", "itself", "themselves", "such", "own",
		"about", "against", "among", "between", "through", "during", "instead", "rather", "unless", "whether",
		// Russian
		"и", "в", "во", "на", "не", "что", "это", "как", "с", "со", "по", "к", "ко", "у", "о", "об", "от", "до",
		"из", "за", "для", "но", "а", "же", "ли", "бы", "то", "он", "она", "оно", "они", "его", "ее", "их", "мы",
		"вы", "я", "ты", "так", "уже", "есть", "был", "была", "было", "были", "будет", "будут", "нет", "когда",
		"если", "чтобы", "потому", "который", "которая", "которое", "которые", "при", "без", "через", "или",
		"ни", "даже", "только", "лишь", "все", "всё", "всех", "там", "тут", "где", "здесь", "надо", "нужно",
		"может", "могут", "можно", "нельзя", "сам", "сама", "сами", "себя", "свой", "своя", "свои", "его", "ему",
		"им", "ей", "между", "после", "перед", "пока", "тоже", "также", "потом", "затем", "поэтому", "значит",
		"над", "под", "про", "вот", "этот", "эта", "эти", "тот", "та", "те", "один", "одна", "одно",
		"сколько", "каждый", "каждая", "каждое", "каждой", "каждого", "каждую", "самый", "самое", "самая",
		"вместо", "никто", "ничего", "никогда", "чем", "чего", "кто", "кого", "ведь", "либо", "ещё", "еще", "уж",
	} {
		functionWords[w] = true
	}
}

// minListWords is the shortest run of terms that can be a keyword list.
const minListWords = 6

// ruVerbEndings end most Russian verb forms (infinitive, present, past,
// imperative, reflexive; "-ть" only after a vowel, so that "-ость" nouns
// such as "отказоустойчивость" do not count); a Russian sentence may have no function word
// ("Дефрагментация переписывает файл") but has a verb. A noun with such an
// ending ("лимит", "сигнал") only makes a list read as a sentence.
var ruVerbEndings = []string{"ать", "ять", "еть", "ить", "уть", "ыть", "ться", "ет", "ют", "ут", "ит", "ят", "ат", "ется", "ются", "ится", "ятся",
	"ал", "ала", "ало", "али", "ил", "ила", "ило", "или", "ел", "ела", "ели", "ем", "им", "ете", "ите", "йте", "ьте", "ся", "сь",
	"ст", "ит", "вая", "ляя", "дя", "ено", "ана", "ано", "ены", "аны"}

// isKeywordList says whether a clause reads as a list of terms: six or
// more terms (runs of text between spaces: "etcd_disk_wal_fsync" or
// "kube-proxy" is one term), no operator between them (an arrow, "=",
// "+", a bracket, a spaced slash or dash: "label gone → RS releases" is a
// statement), and no function word or Russian verb (fewer than one per
// nine terms, in twelve terms or more).
func isKeywordList(text string) bool {
	if strings.ContainsAny(text, "→+×<>(){}[]:;←⇒\"") || strings.Contains(text, "->") {
		return false
	}
	// "=" between terms is an operator ("replicas = 3"); inside one
	// ("--cascade=orphan") it is part of a flag's spelling
	if strings.Contains(text, " =") || strings.Contains(text, "= ") {
		return false
	}
	for _, op := range []string{" / ", " — ", " – ", " - "} {
		if strings.Contains(text, op) {
			return false
		}
	}
	terms, fw := 0, 0
	for _, f := range strings.Fields(text) {
		ws := words(f)
		if len(ws) == 0 {
			continue
		}
		terms++
		// a capitalised word inside a clause is a name or a value
		// ("clusterIP None", "A records"), not a function word
		if terms > 1 && f != "I" && unicode.IsUpper([]rune(f)[0]) && !isCyrillic(f) {
			continue
		}
		for _, w := range ws {
			if isSentenceWord(f, w) {
				fw++
				break
			}
		}
	}
	return terms >= minListWords && (fw == 0 || terms >= 12 && terms >= listTermsPerWord*fw)
}

// listTermsPerWord: a run of twelve terms or more with fewer than one
// function word per nine terms is a list too ("… PLEG is not healthy 3m
// threshold NodeNotReady …" quotes a message inside a list of terms)
const listTermsPerWord = 9

// isSentenceWord says whether w, a word of the term f, shows a sentence:
// a function word, unless f is a hyphenated English term ("read-only",
// "CRI-O" are terms, not "only"), or a Russian verb form, unless w is a
// noun with a verb's ending (ruNotVerbs, a numeral, or a transliterated
// term such as "кубелет").
func isSentenceWord(f, w string) bool {
	if functionWords[w] {
		return !strings.Contains(f, "-") || isCyrillic(f) || strings.ContainsAny(f, "'’")
	}
	return isCyrillic(w) && len([]rune(w)) > 3 && hasAnySuffix(w, ruVerbEndings) && !ruNotVerbs[w] &&
		!strings.HasSuffix(w, "дцать") && !slangTerm(w)
}

// ruNotVerbs are nouns and numerals with a verb's ending.
var ruNotVerbs = map[string]bool{"пять": true, "шесть": true, "девять": true, "десять": true, "сеть": true,
	"память": true, "плеть": true, "треть": true, "медь": true}

func hasAnySuffix(w string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// Warnings and hedges (issue 22 §2): "never use --force-conflicts", "a
// common mistake is to think any member can commit", "don't run defrag
// with --cluster, which hits every member at once" name a misconception to
// warn against it. A sentence that carries a warning marker anywhere, or
// starts with a prohibition, states no misconception: the grader only
// marks ✗ a misconception asserted plainly.
var (
	warnWords = map[string]bool{
		"mistake": true, "mistaken": true, "mistakenly": true, "myth": true, "misconception": true, "wrong": true,
		"wrongly": true, "incorrect": true, "incorrectly": true, "tempting": true, "antipattern": true, "avoid": true,
		"beware": true, "dangerous": true, "risky": true, "pitfall": true, "gotcha": true, "misleading": true,
		"ошибка": true, "ошибку": true, "ошибочно": true, "заблуждение": true, "миф": true, "неправильно": true,
		"неверно": true, "соблазн": true, "антипаттерн": true, "избегать": true, "избегайте": true, "опасно": true,
		"рискованно": true, "ловушка": true, "грабли": true,
	}
	warnPhrases = [][]string{{"anti", "pattern"}, {"bad", "idea"}, {"last", "resort"}, {"not", "true"},
		{"only", "ok"}, {"only", "safe"}, {"only", "okay"},
		{"people", "think"}, {"people", "assume"}, {"плохая", "идея"}, {"крайнем", "случае"}, {"не", "стоит"},
		{"многие", "думают"}, {"многие", "считают"}, {"часто", "думают"}, {"не", "надо"}, {"не", "нужно"}}
	// prohibitions open a sentence: "Never …", "Don't …", "Do not …", "Нельзя …", "Не …"
	prohibitions = [][]string{{"never"}, {"don", "t"}, {"dont"}, {"do", "not"}, {"нельзя"}, {"никогда"}, {"не"}}
)

// warnedSentences says, per sentence index, whether it warns.
func warnedSentences(cls []clause) map[int]bool {
	out := map[int]bool{}
	first := map[int]bool{}
	for _, c := range cls {
		raw := make([]string, len(c.toks))
		for i, t := range c.toks {
			raw[i] = t.raw
			if warnWords[t.raw] {
				out[c.sent] = true
			}
		}
		for _, p := range warnPhrases {
			if containsSeq(raw, p, false) {
				out[c.sent] = true
			}
		}
		if !first[c.sent] {
			first[c.sent] = true
			for _, p := range prohibitions {
				if containsSeq(raw, p, true) {
					out[c.sent] = true
				}
			}
		}
	}
	return out
}

// containsSeq says whether ws holds seq in a row (at the start only, with
// atStart).
func containsSeq(ws, seq []string, atStart bool) bool {
	for i := 0; i+len(seq) <= len(ws); i++ {
		ok := true
		for j, w := range seq {
			if ws[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
		if atStart {
			return false
		}
	}
	return false
}

// Suppositions (issue 22 §2): "if components called each other directly,
// they would have to know each other's addresses", «если бы неймспейс
// держал первый контейнер, его рестарт ломал бы сеть» suppose the
// misconception to show what would go wrong. A misconception matched
// after "if"/"если" in a clause in the conditional mood (would, could,
// бы) is supposed, not asserted; so is one in a clause that opens with
// a Russian impersonal prescription (надо, нужно…).
var (
	supposeWords     = map[string]bool{"if": true, "suppose": true, "imagine": true, "если": true, "допустим": true, "представь": true, "представим": true}
	conditionalWords = map[string]bool{"would": true, "could": true, "бы": true, "б": true}
)

// adviceWords open a Russian impersonal prescription: «Надо после apply
// делать kubectl wait» tells what to do, it does not claim apply waits.
var adviceWords = map[string]bool{"надо": true, "нужно": true, "необходимо": true, "следует": true}

// supposed says whether the misconception matched at m stands in a
// supposition, or in advice.
func supposed(c clause, m patternMatch) bool {
	if len(c.toks) > 0 && adviceWords[c.toks[0].raw] && m.lo > 0 {
		return true
	}
	cond, ifBefore := false, false
	for i, t := range c.toks {
		if conditionalWords[t.raw] {
			cond = true
		}
		if supposeWords[t.raw] && i <= m.lo {
			ifBefore = true
		}
	}
	return cond && ifBefore
}
