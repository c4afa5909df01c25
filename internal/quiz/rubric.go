package quiz

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file is the free-text grader: rubric patterns, clauses, polarity.
// The format is documented in doc.go ("Free-text rubrics").

// pattern is one compiled way to state a concept: groups that must all
// match inside one clause, each group a list of alternative phrases.
type pattern struct {
	src    string
	groups [][]phrase
}

// phrase is one alternative: a word or several words in order.
type phrase struct{ words []token }

// parsePattern compiles "a|b c + d|e". It returns an error for a pattern
// with fewer than two groups or an empty alternative.
func parsePattern(src string) (pattern, error) {
	p := pattern{src: src}
	for _, g := range strings.Split(src, " + ") {
		var alts []phrase
		for _, a := range strings.Split(g, "|") {
			ws := tokenize(a)
			if len(ws) == 0 {
				return p, fmt.Errorf("pattern %q: empty alternative in group %q", src, strings.TrimSpace(g))
			}
			alts = append(alts, phrase{words: ws})
		}
		p.groups = append(p.groups, alts)
	}
	if len(p.groups) < 2 {
		return p, fmt.Errorf("pattern %q has one group: join a subject and a predicate with \" + \"", src)
	}
	return p, nil
}

// clause is a run of an answer's words between clause boundaries, with its
// place in the answer (for quoting) and whether a "rather than"/"instead of"
// before it negates it.
type clause struct {
	toks       []token
	spans      [][2]int // spans[i]: the byte offsets of word i in the answer
	soft       []bool   // soft[i]: a comma, dash or bracket stands before word i
	start, end int      // byte offsets in the answer
	leadNeg    bool
	list       bool // a keyword list (isKeywordList): it states nothing
	sent       int  // the sentence the clause belongs to (for warnings)
}

// wordTok is a word with its byte span in the original text.
type wordTok struct {
	token
	start, end int
}

// Clause boundaries. Sentence ends and ; : split always (a dot only before
// a space or the end, so "cpu.max" and "1.5" stay whole). A comma splits
// unless the next word starts a subordinate clause that belongs to the
// same statement ("commits, once a majority…", "коммитится, когда…").
// Contrast conjunctions split and are dropped; "rather than" and
// "instead of" split and negate what follows.
var (
	contrastWords = map[string]bool{"but": true, "however": true, "whereas": true, "while": true,
		"although": true, "though": true, "yet": true, "а": true, "но": true, "однако": true, "хотя": true,
		"зато": true, "тогда": false}
	subordinators = map[string]bool{"when": true, "once": true, "until": true, "unless": true, "because": true,
		"since": true, "if": true, "so": true, "which": true, "that": true, "after": true, "before": true,
		"as": true, "where": true, "who": true, "till": true, "otherwise": true,
		"когда": true, "если": true, "пока": true, "потому": true, "так": true, "поэтому": true, "чтобы": true,
		"который": true, "которая": true, "которое": true, "которые": true, "которого": true, "которой": true,
		"которых": true, "которым": true, "что": true, "где": true, "после": true, "прежде": true, "до": true,
		"иначе": true, "то": true, "лишь": true, "только": true, "как": true, "ведь": true,
		"значит": true, "hence": true, "thus": true, "therefore": true}
	// two-word splitters that negate the clause after them
	negSplitters = [][2]string{{"rather", "than"}, {"instead", "of"}}
)

// clauses splits an answer into clauses.
func clauses(s string) []clause {
	var ws []wordTok
	// boundaries[i] is true if a hard boundary precedes word i; comma[i] if a comma does.
	var hard, comma, soft, sentEnd, colon []bool
	pendingHard, pendingComma, pendingSoft, pendingSent, pendingColon := false, false, false, false, false
	depth := 0 // inside parentheses only a sentence end splits
	// runes and their byte offsets (an invalid byte is one U+FFFD of size 1)
	var rs []rune
	var offs []int
	for o := 0; o < len(s); {
		r, size := utf8.DecodeRuneInString(s[o:])
		rs = append(rs, r)
		offs = append(offs, o)
		o += size
	}
	offs = append(offs, len(s))
	// emit adds a word with the breaks seen since the last one
	emit := func(w string, start, end int) {
		ws = append(ws, wordTok{token: newToken(w), start: start, end: end})
		hard = append(hard, pendingHard)
		comma = append(comma, pendingComma)
		soft = append(soft, pendingSoft || pendingComma)
		sentEnd = append(sentEnd, pendingSent)
		colon = append(colon, pendingColon)
		pendingHard, pendingComma, pendingSoft, pendingSent, pendingColon = false, false, false, false, false
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			j := i
			var b strings.Builder
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				c := unicode.ToLower(rs[j])
				if c == 'ё' {
					c = 'е'
				}
				b.WriteRune(c)
				j++
			}
			w := b.String()
			emit(w, offs[i], offs[j])
			i = j
			continue
		}
		switch r {
		case '(':
			depth++
			pendingSoft = true
		case ')':
			depth = max(0, depth-1)
			pendingSoft = true
		case '—', '–', '/', '→':
			pendingSoft = true
		case ';', ':':
			// a colon inside a name ("system:serviceaccount:ci:bot",
			// "image:tag") splits nothing
			if r == ':' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
				break
			}
			if depth == 0 {
				pendingHard = true
				pendingColon = r == ':'
			}
			pendingSoft = true
		case '!', '?', '\n':
			pendingHard, pendingSent = true, true
		case '.':
			// an ellipsis inside brackets elides part of a command
			// ("(kubectl patch ... -p …)"): no sentence ends there
			ellipsis := depth > 0 && i > 0 && rs[i-1] == '.'
			if (i+1 == len(rs) || unicode.IsSpace(rs[i+1])) && !ellipsis {
				pendingHard, pendingSent = true, true
			}
		case ',':
			if depth == 0 {
				pendingComma = true
			}
		case '>':
			// "requests > allocatable": a comparison reads as "more";
			// "->" and "=>" are arrows
			if i == 0 || rs[i-1] != '-' && rs[i-1] != '=' {
				emit("more", offs[i], offs[i+1])
			}
		case '&':
			// "not voted this term && log up to date": "&&" and "&" read as "and"
			if i == 0 || rs[i-1] != '&' {
				emit("and", offs[i], offs[i+1])
			}
		}
		i++
	}
	// "реплика-сет", "реплика сет": the second word is also "replicaset"
	for i := 0; i+1 < len(ws); i++ {
		if strings.HasPrefix(ws[i].raw, "реплик") && strings.HasPrefix(ws[i+1].raw, "сет") {
			rs := newToken("replicaset")
			ws[i+1].alias = &rs
		}
	}
	var out []clause
	sent := 0
	cur := clause{start: -1}
	body := -1 // after a heading, the byte offset of the words it heads
	flush := func() {
		if len(cur.toks) > 0 {
			from := cur.start
			if body >= 0 && body <= cur.end {
				from = body
			}
			// else the heading's clause ends before its body starts
			// ("Сразу подумаю: а …": the contrast word after the colon
			// closes the heading alone)
			cur.list = isKeywordList(s[from:cur.end])
			cur.sent = sent
			out = append(out, cur)
		}
		cur, body = clause{start: -1}, -1
	}
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if sentEnd[i] {
			flush()
			sent++
		}
		split := hard[i] || comma[i] && !subordinators[w.raw]
		if split && colon[i] && !sentEnd[i] && isHeading(cur) {
			// "Компакция: дропает старые ревизии", "Fix: drop replicas
			// from the manifest": a heading names the subject of what
			// follows the colon, so it stays in that clause
			split, body = false, w.start
		}
		if split {
			flush()
		}
		if contrastWords[w.raw] {
			flush()
			continue
		}
		neg := false
		for _, sp := range negSplitters {
			if i+1 < len(ws) && w.raw == sp[0] && ws[i+1].raw == sp[1] {
				neg = true
			}
		}
		if neg {
			flush()
			cur.leadNeg = true
			i++
			continue
		}
		if cur.start < 0 {
			cur.start = w.start
		}
		cur.end = w.end
		cur.soft = append(cur.soft, soft[i] && len(cur.toks) > 0)
		cur.toks = append(cur.toks, w.token)
		cur.spans = append(cur.spans, [2]int{w.start, w.end})
	}
	flush()
	return out
}

// maxHeadingWords is the longest heading before a colon ("Компакция:",
// "Каждая запись:") read as the subject of the clause after it.
const maxHeadingWords = 3

// isHeading says whether a clause is a heading: one to three words, none
// a negation ("Нет: …" answers the question, it does not head a clause),
// and no heading already.
func isHeading(c clause) bool {
	if len(c.toks) == 0 || len(c.toks) > maxHeadingWords {
		return false
	}
	for _, t := range c.toks {
		if t.neg {
			return false
		}
	}
	return true
}

// Negation words. English "n't" arrives as the word "t" (words split at
// the apostrophe); the apostrophe-less spellings are listed too.
var (
	enNegators = map[string]bool{"not": true, "no": true, "never": true, "without": true, "none": true,
		"nothing": true, "nobody": true, "nowhere": true, "cannot": true, "neither": true, "nor": true, "t": true,
		"dont": true, "doesnt": true, "isnt": true, "arent": true, "wasnt": true, "werent": true, "cant": true,
		"wont": true, "didnt": true, "hasnt": true, "havent": true, "shouldnt": true, "couldnt": true,
		"wouldnt": true, "neednt": true, "mustnt": true, "aint": true, "stops": true, "stopped": true,
		"ceases": true, "fails": false}
	// Russian has negative concord: "никто не знает", "ни одна запись не
	// коммитится" is one negation, so these count once per scope; "без"
	// counts on its own ("без кворума запись не коммитится" is positive).
	ruConcord = map[string]bool{"не": true, "нет": true, "ни": true, "никогда": true, "нельзя": true,
		"никто": true, "ничто": true, "ничего": true, "никак": true, "нигде": true, "никакой": true,
		"никакого": true, "никакие": true, "никаких": true, "никакая": true, "невозможно": true,
		"невозможна": true, "невозможен": true, "невозможны": true,
		"перестает": true, "перестают": true, "перестал": true, "перестало": true, "прекращает": true, "прекращают": true}
	untilWords = map[string]bool{"until": true, "unless": true, "till": true}
)

func isNegator(w string) bool { return enNegators[w] || ruConcord[w] || w == "без" }

// wrongOne are the words that make «не тот», «не туда» mean "the wrong
// one", "the wrong way".
var wrongOne = map[string]bool{"тот": true, "та": true, "те": true, "того": true, "той": true, "тому": true, "туда": true}

// verbBreakers open a clause of their own inside a sentence part: a
// negation does not reach across them ("the delete does not complete
// because the controller removes the finalizer" states the removal).
// "that"/"что" do not break: "it is not true that X" negates X.
var verbBreakers = map[string]bool{"because": true, "since": true, "when": true, "once": true, "if": true, "iff": true,
	"so": true, "which": true, "who": true, "where": true, "after": true, "before": true, "whereas": true,
	"hence": true, "thus": true, "therefore": true, "otherwise": true,
	"потому": true, "поэтому": true, "когда": true, "если": true, "чтобы": true, "где": true, "ведь": true,
	"значит": true, "иначе": true, "который": true, "которая": true, "которое": true, "которые": true,
	"которого": true, "которой": true, "которых": true, "которым": true}

// shortReach is how many words after position i a negation there reaches
// when it is "no longer" (2 after "longer") or a negative pronoun subject
// ("nothing", "nobody": 2); 0 for the usual scope.
func shortReach(toks []token, i int) int {
	switch w := toks[i].raw; {
	case w == "no" && i+1 < len(toks) && toks[i+1].raw == "longer":
		return 3
	case w == "nothing" || w == "nobody":
		return 2
	}
	return 0
}

// scopeStops end a negation's reach outside the matched words: "commits on
// a majority and never on a minority" does not negate the majority. "or"
// does not stop it: "no need to wait or fail" negates both.
var scopeStops = map[string]bool{"and": true, "и": true, "also": true, "также": true}

// negatedSpan says whether the words around lo..hi of c carry a negation
// the pattern does not account for (matched marks the words the pattern
// matched itself). The scope is the matched words plus up to five words
// before and two after, stopping at and/or/и/или and at a comma, dash,
// slash or bracket. Negations less than four words apart form
// one cluster whose parity counts ("no write commits without a majority"
// is positive); any odd cluster negates. Russian concord words (не, ни,
// никогда…) count once in the scope, none if the pattern matched one; "без"
// counts each time. "not … until/unless" and "пока … не" mean "only
// after" and cancel the negation.
func negatedSpan(c clause, lo, hi int, matched map[int]bool) bool {
	from := lo
	for k := 1; k <= 5 && lo-k >= 0; k++ {
		if scopeStops[c.toks[lo-k].raw] || c.soft[lo-k+1] || verbBreakers[c.toks[lo-k].raw] {
			break
		}
		from = lo - k
	}
	to := hi
	for k := 1; k <= 2 && hi+k < len(c.toks); k++ {
		if scopeStops[c.toks[hi+k].raw] || c.soft[hi+k] || verbBreakers[c.toks[hi+k].raw] {
			break
		}
		to = hi + k
	}
	patConcord, patEnNeg := false, false
	for i := range matched {
		if ruConcord[c.toks[i].raw] {
			patConcord = true
		}
		if enNegators[c.toks[i].raw] {
			patEnNeg = true
		}
	}
	var negs []int // positions of the negations that count
	concordSeen, neither := patConcord, false
	untilCancel, poka, seenNeg := false, false, false
	for i := 0; i < len(c.toks); i++ {
		w := c.toks[i].raw
		if w == "пока" {
			poka = true
		}
		if untilWords[w] && seenNeg {
			untilCancel = true
		}
		if isNegator(w) {
			seenNeg = true
		}
		if i < from || i > to || matched[i] || w == "none" && i > 0 && c.toks[i-1].raw == "clusterip" {
			continue
		}
		if embedded(c, i, lo, hi, matched) || negatesLoss(c, i, matched) {
			continue
		}
		// "without"/«без» and a noun after every matched word qualify
		// what was said ("pods are created without the sidecar", «поды
		// создаются без сайдкара»): they negate the noun, not the
		// statement; "without using…" negates an action and counts
		if (w == "without" || w == "без") && i > hi && !(i+1 < len(c.toks) && strings.HasSuffix(c.toks[i+1].raw, "ing")) {
			continue
		}
		// mixed speech says one negation in both languages ("no quorum
		// ни с одной стороны"): when the pattern matched a negation of
		// one language, one of the other is the same negation, not a
		// second one
		if patConcord && enNegators[w] || patEnNeg && ruConcord[w] {
			continue
		}
		// "no longer X", "nothing X", "nobody X": the negation is X's, the
		// next two words; it does not reach a statement further on ("when
		// it is no longer needed the controller removes it")
		if reach := shortReach(c.toks, i); reach > 0 && (lo > i+reach || hi < i) {
			continue
		}
		// «не тот контроллер», «уйти не туда»: "the wrong one", not a negation
		if w == "не" && i+1 < len(c.toks) && wrongOne[c.toks[i+1].raw] {
			continue
		}
		// "нет ли taint'ов", "не висит ли PVC": an indirect question, not a negation
		if ruConcord[w] && (i+1 < len(c.toks) && c.toks[i+1].raw == "ли" || i+2 < len(c.toks) && c.toks[i+2].raw == "ли") {
			continue
		}
		switch {
		case w == "neither" || w == "nor":
			if !neither {
				negs = append(negs, i)
				neither = true
			}
		case enNegators[w], w == "без":
			negs = append(negs, i)
		case ruConcord[w]:
			if poka && w == "не" {
				// "…, пока большинство не подтвердит": until, not a negation;
				// it also turns a "не" before it into "only after"
				untilCancel = true
				continue
			}
			if !concordSeen {
				negs = append(negs, i)
				concordSeen = true
			}
		}
	}
	negated := false
	for k := 0; k < len(negs); {
		n := 1
		for k+n < len(negs) && negs[k+n]-negs[k+n-1] < 4 {
			n++
		}
		if n%2 == 1 {
			negated = true
		}
		k += n
	}
	if untilCancel {
		negated = false
	}
	if !negated && dismissedAfter(c, hi, matched) {
		negated = true
	}
	return negated != c.leadNeg
}

// Loss verbs (issue 22 §2, dev-blind3): a negated verb of disappearing or
// breaking that the pattern did not match says what stays or is safe,
// it does not deny the statement: «старый ReplicaSet никуда не делся»
// (it is still there), "a rerun breaks nothing", "the data is not lost".
var (
	lossWordsEn = map[string]bool{"disappear": true, "disappears": true, "disappeared": true, "vanish": true,
		"vanishes": true, "vanished": true, "lost": true, "lose": true, "loses": true, "break": true, "breaks": true,
		"broken": true, "harm": true, "harms": true, "hurt": true, "hurts": true, "corrupt": true, "corrupts": true}
	lossPrefixesRu = []string{"делс", "делас", "делос", "делис", "девает", "деваю", "исчез", "пропад", "пропал",
		"теряе", "теряю", "потеря", "слома", "ломае", "ломаю", "испорт", "портит", "вред", "навред"}
	// lossFillers stand between a negation and its loss verb: "does not
	// ever break", «никуда не делся», «ничего не сломает»
	lossFillers = map[string]bool{"ever": true, "really": true, "anything": true, "actually": true, "get": true,
		"gets": true, "go": true, "никуда": true, "ничего": true, "никак": true, "при": true, "этом": true}
)

func isLossWord(t token) bool {
	if lossWordsEn[t.raw] {
		return true
	}
	return t.cyr && hasAnyPrefix(t.raw, lossPrefixesRu)
}

func hasAnyPrefix(w string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// negatesLoss says whether the negation at i negates a loss verb the
// pattern did not match: the next words, past other negations and
// fillers, reach one within three words.
func negatesLoss(c clause, i int, matched map[int]bool) bool {
	for k := i + 1; k < len(c.toks) && k <= i+3; k++ {
		t := c.toks[k]
		if k > i+1 && c.soft[k] {
			return false
		}
		if isLossWord(t) {
			return !matched[k]
		}
		if !t.neg && !lossFillers[t.raw] {
			return false
		}
	}
	return false
}

// Dismissals (issue 22 §2, dev-blind3): "compaction and defrag are not
// needed", «компакция и дефрагментация не нужны» name the fix as the
// subject and then deny it is needed; the negation stands past the two
// words after the match that the scope reaches.
var (
	dismissWordsEn   = map[string]bool{"needed": true, "necessary": true, "required": true, "needful": true, "useful": true}
	dismissPrefixRu  = []string{"нуж", "требу", "обязательн", "помог", "помож", "понадоб"}
	dismissSoloWords = map[string]bool{"unnecessary": true, "unneeded": true, "pointless": true, "useless": true,
		"бесполезн": true, "излишн": true, "ненужн": true}
)

// dismissedAfter says whether a dismissal follows the match within five
// words (not past a comma, a dash, and/и or a clause opener): a negation
// before a "needed" word, or a word such as "unnecessary" that the pattern
// did not match.
func dismissedAfter(c clause, hi int, matched map[int]bool) bool {
	for k := hi + 1; k < len(c.toks) && k <= hi+5; k++ {
		w := c.toks[k].raw
		if c.soft[k] || scopeStops[w] || verbBreakers[w] {
			return false
		}
		if matched[k] {
			continue
		}
		if dismissSoloWords[w] || c.toks[k].cyr && (hasAnyPrefix(w, []string{"бесполезн", "излишн", "ненужн"})) {
			return true
		}
		if c.toks[k].neg && k+1 < len(c.toks) && !matched[k+1] {
			n := c.toks[k+1]
			if dismissWordsEn[n.raw] || n.cyr && hasAnyPrefix(n.raw, dismissPrefixRu) {
				return true
			}
		}
	}
	return false
}

// embedded says whether the negation at i, between the words a pattern
// matched, stands in a clause of its own inside the match: a clause
// opener or and/и (or a comma, dash or bracket) separates it from the
// matched words on both sides, and a clause opener on one side at least
// (a subject "X and Y" followed by "do not" is no clause of its own). "a member gives its vote if it hasn't
// voted in that term and the candidate's log is up to date" negates
// "voted", not the vote for an up-to-date log (issue 22 §2: a negation
// that belongs to another verb).
func embedded(c clause, i, lo, hi int, matched map[int]bool) bool {
	if i <= lo || i >= hi {
		return false
	}
	left, right := lo, hi
	for k := i - 1; k >= lo; k-- {
		if matched[k] {
			left = k
			break
		}
	}
	for k := i + 1; k <= hi; k++ {
		if matched[k] {
			right = k
			break
		}
	}
	// breaks: a breaker among the words a+1..b, or a boundary before
	// them; opens: one of them a clause opener
	breaks := func(a, b int) (brk, opens bool) {
		for k := a + 1; k <= b; k++ {
			w := c.toks[k].raw
			brk = brk || verbBreakers[w] || scopeStops[w] || c.soft[k]
			opens = opens || verbBreakers[w]
		}
		return brk, opens
	}
	lb, lo2 := breaks(left, i)
	rb, ro := breaks(i, right)
	return lb && rb && (lo2 || ro)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// patternWordMatch compares an answer word with a pattern word: the same
// stem or word; a pattern word of 4+ letters (3+ in Cyrillic) that begins
// the answer word or its stem ("подтвержд" matches "подтверждает"); one
// typo on words of 5+ letters. Negation words and numbers match exactly.
func patternWordMatch(ans, pat token, typo bool) bool {
	if ans.raw == pat.raw {
		return true
	}
	if ans.alias != nil && !pat.cyr && patternWordMatch(*ans.alias, pat, typo) {
		return true
	}
	// a negation or a number is only itself: "неё" stems to "не", and
	// must not read as a negation (issue 22 §2)
	if ans.neg || pat.neg || ans.num || pat.num {
		return false
	}
	if ans.stem == pat.stem {
		return true
	}
	minPrefix := 4
	if pat.cyr {
		minPrefix = 3 // Russian stems are short and inflect a lot: "нуж" for "нужно", "нужен"
	}
	if len(pat.rawR) >= minPrefix && (strings.HasPrefix(ans.raw, pat.raw) || len(pat.stemR) >= minPrefix && strings.HasPrefix(ans.stem, pat.stem)) {
		return true
	}
	return typo && tokenMatch(ans, pat)
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

// phraseMatches returns the start positions where ph matches in toks (its
// words in order, at most maxGap extra words between them) and the end.
func phraseMatches(toks []token, ph phrase, typo bool) [][2]int {
	var out [][2]int
	for i := range toks {
		if end, ok := phraseFrom(toks, ph.words, i, typo); ok {
			out = append(out, [2]int{i, end})
		}
	}
	return out
}

func phraseFrom(toks, ws []token, i int, typo bool) (int, bool) {
	if i >= len(toks) || !patternWordMatch(toks[i], ws[0], typo) {
		return 0, false
	}
	if len(ws) == 1 {
		return i, true
	}
	for next := i + 1; next <= i+1+maxGap; next++ {
		if end, ok := phraseFrom(toks, ws[1:], next, typo); ok {
			return end, true
		}
	}
	return 0, false
}

// patternMatch is a pattern found in a clause.
type patternMatch struct {
	clause       int
	in           *clause // the clause matched, when it is no clause of the answer's (joined)
	lo, hi       int
	contradicted bool // the clause's polarity differs from the pattern's
}

type groupHit struct{ lo, hi int }

// matchPattern looks for p in the clause: one hit per group, the tightest
// combination; polarity compares the negations around the hit with the
// negations the pattern itself expects. With several combinations, prefer
// says which one wins: a positive one (for a concept: the author's
// negated alternatives such as "no node matches" get their chance) or a
// contradicted one (for a misconception: it counts only if no reading of
// the clause negates it).
func matchPattern(c clause, p pattern, prefer bool) (patternMatch, bool) {
	hits := make([][]groupHit, len(p.groups))
	for g, alts := range p.groups {
		for _, a := range alts {
			// a misconception (prefer false) is matched without typo
			// tolerance: a typo that turns one real word into another
			// ("picks" is not "packs") must not mark a right answer ✗
			for _, m := range phraseMatches(c.toks, a, prefer) {
				hits[g] = append(hits[g], groupHit{m[0], m[1]})
			}
		}
		if len(hits[g]) == 0 {
			return patternMatch{}, false
		}
	}
	// Of all combinations (one hit per group, no overlaps), take the
	// tightest whose polarity agrees with the pattern; else the tightest.
	var best patternMatch
	found, bestOK, bestLen := false, false, 0
	var walk func(g int, acc []groupHit, budget *int)
	walk = func(g int, acc []groupHit, budget *int) {
		if *budget <= 0 {
			return
		}
		if g == len(hits) {
			*budget--
			if negatorAcrossComma(c, acc) {
				return
			}
			lo, hi := acc[0].lo, acc[0].hi
			for _, h := range acc {
				lo, hi = min(lo, h.lo), max(hi, h.hi)
			}
			if hi-lo > maxSpan(len(acc), prefer) || !prefer && roleSwapped(c, acc) {
				return
			}
			matched := map[int]bool{}
			for _, h := range acc {
				for k := h.lo; k <= h.hi; k++ {
					matched[k] = true
				}
			}
			ok := !negatedSpan(c, lo, hi, matched) == prefer
			if !found || ok && !bestOK || ok == bestOK && hi-lo < bestLen {
				best = patternMatch{lo: lo, hi: hi, contradicted: ok != prefer}
				found, bestOK, bestLen = true, ok, hi-lo
			}
			return
		}
		for _, h := range hits[g] {
			overlap := false
			for _, a := range acc {
				if h.lo <= a.hi && a.lo <= h.hi {
					overlap = true
				}
			}
			if !overlap {
				walk(g+1, append(acc, h), budget)
			}
		}
	}
	budget := 4096
	walk(0, nil, &budget)
	return best, found
}

// maxSpan bounds how far apart the words of one match may stand (issue 22
// §2): the words of one statement stand near each other, while a subject
// early in a long sentence part and a predicate a dozen words on, past
// other verbs, belong to two statements. A misconception (prefer false)
// is held to a tighter bound: it must be asserted plainly to be marked ✗.
func maxSpan(groups int, says bool) int {
	if says {
		return spanSays + 2*(groups-2)
	}
	return spanWrong + 2*(groups-2)
}

var spanSays, spanWrong = 12, 8

// Role words (issue 22 §4). A misconception such as "a pod of higher
// priority is preempted" names the one an action is done to; the same
// words in "a higher-priority pod preempts it" or «его вытеснит под с
// большим приоритетом» name the doer, which is the right fact. By the
// bank's convention a misconception pattern ends with its verb group.
var (
	// objectAfter are object pronouns that follow their verb ("preempts
	// it"); "it" before a verb is its subject
	objectAfter = map[string]bool{"it": true, "them": true}
	// objectNear are Russian accusative pronouns, next to their verb on
	// either side («его вытеснит», «вытеснит его»): never a subject
	objectNear = map[string]bool{"его": true, "ее": true, "их": true, "него": true, "нее": true, "них": true}
	// agentWords introduce the doer of a passive verb ("preempted by a
	// pod", «вытеснен подом»)
	agentWords = map[string]bool{"by": true, "подом": true, "подами": true}
)

// roleSwapped says whether the words a misconception's other groups
// matched (acc but the last) name the doer of its verb (the last group's
// hit): an object pronoun stands next to the verb on the other side from
// them, or an agent word stands between a verb that comes first and them.
func roleSwapped(c clause, acc []groupHit) bool {
	if len(acc) < 2 {
		return false
	}
	v := acc[len(acc)-1]
	lo, hi := len(c.toks), -1 // the other words' extent
	for _, h := range acc[:len(acc)-1] {
		lo, hi = min(lo, h.lo), max(hi, h.hi)
	}
	word := func(i int) string {
		if i < 0 || i >= len(c.toks) {
			return ""
		}
		return c.toks[i].raw
	}
	switch {
	case hi < v.lo: // the others before the verb: "X preempts it", «X вытеснит его»
		w := word(v.hi + 1)
		return objectAfter[w] || objectNear[w]
	case lo > v.hi: // the verb first: «его вытеснит X», "preempted by X"
		if objectNear[word(v.lo-1)] {
			return true
		}
		for k := v.hi + 1; k < lo; k++ {
			if agentWords[word(k)] {
				return true
			}
		}
	}
	return false
}

// negatorAcrossComma says whether a negation word the pattern asks for
// ("no|not + add + tolerance") was found on the other side of a comma, dash
// or bracket from every other word of the match: a negation does not reach
// across those (as in negatedSpan), so "etcd does not need a majority, so
// an even size adds tolerance" does not state "an even size adds no
// tolerance".
func negatorAcrossComma(c clause, acc []groupHit) bool {
	for i, h := range acc {
		if h.lo != h.hi || !isNegator(c.toks[h.lo].raw) {
			continue
		}
		near := -1 // the closest other matched word
		for j, o := range acc {
			if j == i {
				continue
			}
			for _, k := range []int{o.lo, o.hi} {
				if near < 0 || abs(k-h.lo) < abs(near-h.lo) {
					near = k
				}
			}
		}
		if near < 0 {
			continue
		}
		a, b := min(near, h.lo), max(near, h.lo)
		for k := a + 1; k <= b; k++ {
			if c.soft[k] || k < b && scopeStops[c.toks[k].raw] {
				return true
			}
		}
		// "guarantees that no PDB is violated": a negation after
		// "that"/«что» belongs to the clause that word opens, not to a
		// verb before it
		for j, o := range acc {
			if j == i || o.hi >= h.lo {
				continue
			}
			for k := o.hi + 1; k < h.lo; k++ {
				if complementizers[c.toks[k].raw] {
					return true
				}
			}
		}
	}
	return false
}

// complementizers open a clause that is the object of the verb before
// them ("ensures that…", «гарантирует, что…»)
var complementizers = map[string]bool{"that": true, "что": true, "чтобы": true}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// compiledConcept is a rubric concept with its patterns parsed.
type compiledConcept struct {
	says  []pattern
	wrong [][]pattern
}

func compileConcept(c Concept) (compiledConcept, []error) {
	var cc compiledConcept
	var errs []error
	comp := func(w Words) []pattern {
		var ps []pattern
		for _, s := range append(append([]string{}, w.En...), w.Ru...) {
			p, err := parsePattern(s)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ps = append(ps, p)
		}
		return ps
	}
	cc.says = comp(c.Says)
	cc.says = append(cc.says, mixed(c.Says)...)
	for _, m := range c.Wrong {
		cc.wrong = append(cc.wrong, comp(m.Says))
	}
	return cc, errs
}

// mixed pairs the English and Russian patterns written in parallel (the
// same place in both lists, the same number of groups) into one whose
// groups take the alternatives of both, so that an answer mixing the
// languages ("kubelet рестартует container", "контроллер removes the
// finalizer") meets it.
func mixed(w Words) []pattern {
	var out []pattern
	for i := 0; i < len(w.En) && i < len(w.Ru); i++ {
		en, err1 := parsePattern(w.En[i])
		ru, err2 := parsePattern(w.Ru[i])
		if err1 != nil || err2 != nil || len(en.groups) != len(ru.groups) {
			continue
		}
		m := pattern{src: en.src + " / " + ru.src}
		for g := range en.groups {
			m.groups = append(m.groups, append(append([]phrase{}, en.groups[g]...), ru.groups[g]...))
		}
		out = append(out, m)
	}
	return out
}

// Concept states in a graded free-text answer.
const (
	Stated        = "stated"
	Missing       = "missing"
	Contradicted  = "contradicted"
	Misconception = "misconception"
)

// Check is one rubric concept of a graded free-text answer: its state, the
// clause of the answer that stated (or contradicted) it, and the
// misconception matched, if any.
type Check struct {
	Concept       string `json:"concept"`
	State         string `json:"state"`
	Quote         string `json:"quote,omitempty"`
	Misconception string `json:"misconception,omitempty"`
}

// compiled caches the compiled rubric of each question.
var compiled sync.Map // *Question -> []compiledConcept

func compiledRubric(q *Question) []compiledConcept {
	if v, ok := compiled.Load(q); ok {
		return v.([]compiledConcept)
	}
	ccs := make([]compiledConcept, len(q.Rubric))
	for i, c := range q.Rubric {
		ccs[i], _ = compileConcept(c)
	}
	compiled.Store(q, ccs)
	return ccs
}

// maxQuoteWords is the longest clause quoted whole.
const maxQuoteWords = 12

// gradeConcept checks one concept against the clauses of an answer.
func gradeConcept(answer string, cls []clause, c Concept, cc compiledConcept, lang string) Check {
	ch := Check{Concept: c.Name.In(lang), State: Missing}
	// the quote is the clause; of a long clause, the words the pattern
	// matched with two words either side: what the grader recognised
	quote := func(m patternMatch) string {
		cl := m.in
		if cl == nil {
			cl = &cls[m.clause]
		}
		if len(cl.toks) <= maxQuoteWords {
			return strings.TrimSpace(answer[cl.start:cl.end])
		}
		lo, hi := max(0, m.lo-2), min(len(cl.toks)-1, m.hi+2)
		q := answer[cl.spans[lo][0]:cl.spans[hi][1]]
		if lo > 0 {
			q = "…" + q
		}
		if hi < len(cl.toks)-1 {
			q += "…"
		}
		return q
	}
	warned := warnedSentences(cls)
	for i, ps := range cc.wrong {
		for ci, cl := range cls {
			if cl.list || warned[cl.sent] {
				continue
			}
			for _, p := range ps {
				if m, ok := matchPattern(cl, p, false); ok && !m.contradicted && !supposed(cl, m) {
					m.clause = ci
					return Check{Concept: ch.Concept, State: Misconception, Quote: quote(m), Misconception: c.Wrong[i].Name.In(lang)}
				}
			}
		}
	}
	var stated, contra *patternMatch
	for ci, cl := range cls {
		if cl.list {
			continue
		}
		for _, p := range cc.says {
			m, ok := matchPattern(cl, p, true)
			if !ok {
				continue
			}
			m.clause = ci
			if m.contradicted && contra == nil {
				contra = &m
			} else if !m.contradicted && stated == nil {
				stated = &m
			}
		}
	}
	if stated == nil {
		stated = statedAcrossPronoun(cls, cc.says)
	}
	// A concept both stated and contradicted (the answer describes the
	// failure, then the fix) counts as stated.
	switch {
	case stated != nil:
		ch.State, ch.Quote = Stated, quote(*stated)
	case contra != nil:
		ch.State, ch.Quote = Contradicted, quote(*contra)
	}
	return ch
}

// Pronoun subjects (issue 22 §2, dev-blind3): "the ReplicaSet has one pod
// too few, and it creates a new one", «у RS на один под меньше, и он
// сразу создаёт новый»: the clause after the comma names its subject by
// a pronoun, so the concept's words stand in two clauses. A clause of
// the same sentence that opens with a subject pronoun (after and/then/so,
// и/а/затем/потом/тогда) is tried joined to the clause before it, for a
// concept only, when neither holds a negation (a pronoun joins two plain
// statements only); the match must use words of both.
var (
	subjectPronouns = map[string]bool{"it": true, "they": true, "он": true, "она": true, "оно": true, "они": true}
	pronounOpeners  = map[string]bool{"and": true, "then": true, "so": true, "и": true, "а": true, "затем": true,
		"потом": true, "тогда": true}
)

func opensWithPronoun(c clause) bool {
	for i, t := range c.toks {
		if i > 1 {
			break
		}
		if subjectPronouns[t.raw] {
			return true
		}
		if !pronounOpeners[t.raw] {
			return false
		}
	}
	return false
}

// statedAcrossPronoun looks for a says pattern in two clauses of one
// sentence joined where the second opens with a subject pronoun.
func statedAcrossPronoun(cls []clause, says []pattern) *patternMatch {
	for ci := 1; ci < len(cls); ci++ {
		prev, cur := cls[ci-1], cls[ci]
		if prev.sent != cur.sent || prev.list || cur.list || prev.leadNeg || cur.leadNeg || !opensWithPronoun(cur) ||
			hasNegation(prev) || hasNegation(cur) {
			continue
		}
		j := clause{start: prev.start, end: cur.end, sent: cur.sent}
		j.toks = append(append([]token{}, prev.toks...), cur.toks...)
		j.spans = append(append([][2]int{}, prev.spans...), cur.spans...)
		j.soft = append(append([]bool{}, prev.soft...), true)
		j.soft = append(j.soft, cur.soft[1:]...)
		for _, p := range says {
			m, ok := matchPattern(j, p, true)
			if ok && !m.contradicted && m.lo < len(prev.toks) && m.hi >= len(prev.toks) {
				m.clause, m.in = ci, &j
				return &m
			}
		}
	}
	return nil
}

func hasNegation(c clause) bool {
	for _, t := range c.toks {
		if t.neg {
			return true
		}
	}
	return false
}
