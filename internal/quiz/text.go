package quiz

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// token is one word of an answer or a rubric pattern: the lower-cased word and its
// Snowball stem (English or Russian by the word's script).
type token struct {
	raw, stem   string
	rawR, stemR []rune // the same as runes, for the typo check
	neg, num    bool   // a negation word; a number
	cyr         bool   // Cyrillic
	// alias is the English term a Russian slang word names (slangAlias):
	// "шедулер" is also "scheduler"
	alias *token
}

func newToken(w string) token {
	s := stem(w)
	t := token{raw: w, stem: s, rawR: []rune(w), stemR: []rune(s), neg: isNegator(w), num: isNumber(w), cyr: isCyrillic(w)}
	if t.cyr {
		if a := slangAlias(w); a != "" {
			at := newToken(a)
			t.alias = &at
		}
	}
	return t
}

// words splits s into lower-case words: runs of letters and digits.
// Hyphens and apostrophes split words too ("pre-stop" is "pre stop"), so
// patterns should be written the same way. ё is folded to е, as Russian
// writers often drop the diaeresis.
func words(s string) []string {
	s = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(s, "ё", "е"), "Ё", "Е"))
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func isCyrillic(w string) bool {
	for _, r := range w {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// stem applies the Snowball stemmer of the word's script
// (github.com/kljensen/snowball: english.Stem, russian.Stem).
func stem(w string) string {
	if isCyrillic(w) {
		return russian.Stem(w, true)
	}
	return english.Stem(w, true)
}

func tokenize(s string) []token {
	ws := words(s)
	ts := make([]token, len(ws))
	for i, w := range ws {
		ts[i] = newToken(w)
	}
	return ts
}

// minFuzzyRunes is the shortest word allowed one typo: shorter words
// ("pod", "dns", "ttl") differ by one letter from other real words.
const minFuzzyRunes = 5

// tokenMatch says whether an answer word matches a pattern or unit word: same stem,
// or one typo (Damerau–Levenshtein distance 1) in the stem or in the raw
// word, for words long enough. The raw word is compared too because a typo
// can change what the stemmer strips.
func tokenMatch(ans, syn token) bool {
	if ans.stem == syn.stem || ans.raw == syn.raw {
		return true
	}
	if ans.rawR == nil || syn.rawR == nil {
		ans, syn = newToken(ans.raw), newToken(syn.raw)
	}
	if len(syn.rawR) < minFuzzyRunes || len(ans.rawR) < minFuzzyRunes-1 {
		return false
	}
	// a typo in a short stem is a different word ("like" is not "live");
	// a stem of five letters still turns real words into each other
	// ("freed" is not "freez(e)"), so stems need six
	if len(ans.stemR) > minFuzzyRunes && len(syn.stemR) > minFuzzyRunes && osaDistance(ans.stemR, syn.stemR, 2) <= 1 {
		return true
	}
	return osaDistance(ans.rawR, syn.rawR, 2) <= 1
}

func runeLen(s string) int { return len([]rune(s)) }

// maxGap is how many extra words may stand between two words of a
// phrase: "more than half" also matches "more than a half", while words
// scattered across a sentence do not make a phrase.
const maxGap = 1

// containsPhrase reports whether the phrase's words occur in the answer in
// order, each at most maxGap words after the previous one.
func containsPhrase(ans, syn []token) bool {
	if len(syn) == 0 {
		return false
	}
	for i := range ans {
		if phraseAt(ans, syn, i) {
			return true
		}
	}
	return false
}

// phraseAt matches syn starting exactly at ans[i], trying every allowed gap
// before each following word (a phrase has a handful of words, so the search
// stays tiny).
func phraseAt(ans, syn []token, i int) bool {
	if i >= len(ans) || !tokenMatch(ans[i], syn[0]) {
		return false
	}
	if len(syn) == 1 {
		return true
	}
	for next := i + 1; next <= i+1+maxGap; next++ {
		if phraseAt(ans, syn[1:], next) {
			return true
		}
	}
	return false
}

// withinOneEdit reports whether a and b are at optimal-string-alignment
// (restricted Damerau–Levenshtein) distance at most 1: equal, or one rune
// inserted, deleted, substituted, or two adjacent runes swapped.
func withinOneEdit(a, b string) bool {
	return osaDistance([]rune(a), []rune(b), 2) <= 1
}

// osaDistance computes the optimal string alignment distance with the
// classic dynamic programme (Wagner–Fischer plus the transposition case,
// see Damerau 1964); it stops early and returns limit once every cell of a
// row reaches limit.
func osaDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}
