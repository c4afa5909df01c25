package l10n

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Languages are the output languages every catalogue carries.
var Languages = []string{"en", "ru"}

// Catalog is the one text mechanism of every command: keyed messages in
// every output language, with one placeholder syntax.
//
//   - {name} is the argument called name: an identifier for named arguments
//     (Vars, or a lookup function), or 1, 2, … for the positional arguments
//     of T.
//   - {name:one|other} in English, {name:one|few|many} in Russian, writes
//     the form CLDR's plural rule picks for the number, with # standing for
//     the number, as in ICU MessageFormat: "{n:# pod|# pods}" is "1 pod",
//     "{n:# под|# пода|# подов}" is "2 пода"; "{n:crashes|crash}" is the
//     word alone, for a verb that agrees with a count.
//
// Arguments are typed, and each type is written the way the language
// writes it: time.Duration as "2m30s" / "2 мин 30 с", float64 as "1.5" /
// "1,5", Num with grouped digits ("12,500" / "12 500"); plain integers
// (ports, revisions, exit codes) and strings are written as they are.
// A brace group that is not a placeholder ("{...}" in a JSON or shell
// snippet) is written as it stands.
type Catalog struct {
	msgs map[string]map[string]string // lang → key → message
	// build, when set, makes msgs on first use (LazyCatalog).
	once  sync.Once
	build func() (en, ru map[string]string)
}

// NewCatalog makes a catalogue of the English and the Russian messages.
func NewCatalog(en, ru map[string]string) *Catalog {
	return &Catalog{msgs: map[string]map[string]string{"en": en, "ru": ru}}
}

// LazyCatalog makes a catalogue whose messages build returns on first use,
// so that a command that never writes them does not build them at start-up.
func LazyCatalog(build func() (en, ru map[string]string)) *Catalog {
	return &Catalog{build: build}
}

// all returns the messages of every language, building them once.
func (c *Catalog) all() map[string]map[string]string {
	if c.build != nil {
		c.once.Do(func() {
			en, ru := c.build()
			c.msgs = map[string]map[string]string{"en": en, "ru": ru}
		})
	}
	return c.msgs
}

// messages returns the messages of lang, English when lang is unknown.
func (c *Catalog) messages(lang string) map[string]string {
	if m, ok := c.all()[lang]; ok {
		return m
	}
	return c.all()["en"]
}

// Msg returns the unfilled message of key in lang.
func (c *Catalog) Msg(lang, key string) (string, bool) {
	s, ok := c.messages(lang)[key]
	return s, ok
}

// Has reports whether key has a message in lang.
func (c *Catalog) Has(lang, key string) bool {
	_, ok := c.Msg(lang, key)
	return ok
}

// Keys lists the keys of lang, sorted.
func (c *Catalog) Keys(lang string) []string {
	var ks []string
	for k := range c.messages(lang) {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// T fills the message of key in lang with args ({1}, {2}, … in order; a
// single Vars argument names them instead). A missing key is a bug the
// catalogue tests catch; should one slip through it shows as "!key".
func (c *Catalog) T(lang, key string, args ...any) string {
	s, ok := c.Msg(lang, key)
	if !ok {
		return "!" + key
	}
	return Format(lang, s, argsOf(args))
}

// In binds the catalogue to one language.
func (c *Catalog) In(lang string) Texts {
	if _, ok := c.all()[lang]; !ok {
		lang = "en"
	}
	return Texts{c: c, lang: lang}
}

// Texts is a catalogue bound to one output language.
type Texts struct {
	c    *Catalog
	lang string
}

// T fills the message of key (see Catalog.T).
func (t Texts) T(key string, args ...any) string { return t.c.T(t.lang, key, args...) }

// Msg returns the unfilled message of key.
func (t Texts) Msg(key string) (string, bool) { return t.c.Msg(t.lang, key) }

// Has reports whether key has a message.
func (t Texts) Has(key string) bool { return t.c.Has(t.lang, key) }

// Lang is the language the texts are in.
func (t Texts) Lang() string { return t.lang }

// Vars names the arguments of a message: T(key, Vars{"pods": 3}).
type Vars map[string]any

// Lookup finds a named argument in v.
func (v Vars) Lookup(name string) (any, bool) { a, ok := v[name]; return a, ok }

// Num is an integer written with the language's digit grouping from five
// digits on ("12,500", "12 500"); a plain int is written as it is.
type Num int64

// Dec is a decimal written with at most Prec digits after the mark,
// trailing zeros dropped ("1.5", "1,5").
type Dec struct {
	V    float64
	Prec int
}

// Fix is a decimal written with exactly Prec digits after the mark ("2.0",
// "2,0"), for columns that stay aligned.
type Fix struct {
	V    float64
	Prec int
}

// Quoted is a string written in Go quotes, as a user's input is echoed.
type Quoted string

// Lookup finds a named argument; Format calls it for every placeholder().
type Lookup func(name string) (any, bool)

func argsOf(args []any) Lookup {
	if len(args) == 1 {
		if v, ok := args[0].(Vars); ok {
			return v.Lookup
		}
	}
	return func(name string) (any, bool) {
		i, err := strconv.Atoi(name)
		if err != nil || i < 1 || i > len(args) {
			return nil, false
		}
		return args[i-1], true
	}
}

// placeholder is the name of a placeholder, and its plural forms if any.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_.]+)(?::([^{}]*\|[^{}]*))?$`) })

// Format fills tmpl's placeholders in lang from arg (see Catalog). A
// placeholder arg does not know is written as "{name?}", so a gap shows.
func Format(lang, tmpl string, arg Lookup) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			break
		}
		m := placeholder().FindStringSubmatch(tmpl[i+1 : i+j])
		if m == nil {
			b.WriteString(tmpl[:i+1])
			tmpl = tmpl[i+1:]
			continue
		}
		b.WriteString(tmpl[:i])
		tmpl = tmpl[i+j+1:]
		v, ok := arg(m[1])
		switch {
		case !ok:
			b.WriteString("{" + m[1] + "?}")
		case m[2] != "":
			b.WriteString(counted(lang, v, strings.Split(m[2], "|")))
		default:
			b.WriteString(Value(lang, v))
		}
	}
	return b.String()
}

// counted writes v's number with its word; a v that is no integer is
// written as it stands.
func counted(lang string, v any, forms []string) string {
	n, ok := integer(v)
	if !ok {
		return Value(lang, v)
	}
	return strings.ReplaceAll(Plural(lang, n, forms...), "#", Int(lang, n))
}

func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(x), true
	case Num:
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Localized is a value that writes itself in each language (a phrase of a
// catalogue, a list of them); its String is the English text.
type Localized interface {
	Localize(lang string) string
}

// Value writes one argument the way lang writes its type.
func Value(lang string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case Localized:
		return x.Localize(lang)
	case string:
		return x
	case Quoted:
		return strconv.Quote(string(x))
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case Num:
		return Int(lang, int64(x))
	case time.Duration:
		return Duration(lang, x)
	case float64:
		return mark(lang, fmt.Sprint(x))
	case float32:
		return mark(lang, fmt.Sprint(x))
	case Dec:
		return Decimal(lang, x.V, x.Prec)
	case Fix:
		return Fixed(lang, x.V, x.Prec)
	}
	return fmt.Sprint(v)
}

// mark puts the language's decimal mark in a number Go wrote.
func mark(lang, s string) string { return strings.Replace(s, ".", Mark(lang), 1) }

// Mark is the language's decimal mark: "." in English, "," in Russian.
func Mark(lang string) string {
	if lang == "ru" {
		return ","
	}
	return "."
}

// Placeholders lists the names of tmpl's placeholders, sorted and without
// repeats, and the number of plural forms each plural one gives.
func Placeholders(tmpl string) (names []string, forms map[string]int) {
	forms = map[string]int{}
	rest := tmpl
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		m := placeholder().FindStringSubmatch(rest[i+1 : i+j])
		if m == nil {
			rest = rest[i+1:]
			continue
		}
		rest = rest[i+j+1:]
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
		if m[2] != "" {
			forms[m[1]] = len(strings.Split(m[2], "|"))
		}
	}
	slices.Sort(names)
	return names, forms
}

// pluralForms is how many forms a plural placeholder gives in each
// language: CLDR's integer categories (English one/other, Russian
// one/few/many).
var pluralForms = map[string]int{"en": 2, "ru": 3}

// Check lists what is wrong with the catalogue: a key missing in a
// language, placeholders that differ between the languages, a plural
// placeholder with the wrong number of forms.
func (c *Catalog) Check() []error {
	var errs []error
	en := c.all()["en"]
	for _, lang := range Languages {
		m := c.all()[lang]
		for _, k := range c.Keys(lang) {
			if _, ok := en[k]; !ok {
				errs = append(errs, fmt.Errorf("%s: %s text without English", k, lang))
			}
			names, forms := Placeholders(m[k])
			if lang != "en" {
				if enNames, _ := Placeholders(en[k]); !slices.Equal(names, enNames) {
					errs = append(errs, fmt.Errorf("%s: placeholders differ: en %v, %s %v", k, enNames, lang, names))
				}
			}
			for name, n := range forms {
				if n != pluralForms[lang] {
					errs = append(errs, fmt.Errorf("%s: {%s} has %d plural forms in %s, CLDR has %d", k, name, n, lang, pluralForms[lang]))
				}
			}
		}
		for _, k := range c.Keys("en") {
			if _, ok := m[k]; !ok {
				errs = append(errs, fmt.Errorf("%s: no %s text", k, lang))
			}
		}
	}
	return errs
}
