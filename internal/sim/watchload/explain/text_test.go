package explain

import (
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // -update is a flag of every test binary
	"github.com/k8sexplain/k8sexplain/internal/sim/watchload"
)

// Both catalogues have the same keys, each with the same placeholders.
func TestCataloguesComplete(t *testing.T) {
	for _, err := range Catalog.Check() {
		t.Error(err)
	}
}

func TestFormats(t *testing.T) {
	en, ru := For("en"), For("ru")
	for _, tc := range []struct{ got, want string }{
		{en.Int(10000), "10,000"},
		{en.Int(4687), "4,687"},
		{ru.Int(10000), "10\u00a0000"},
		{ru.Int(4687), "4\u00a0687"}, // CLDR groups four digits too
		{en.Bytes(2686), "2,686 B"},
		{en.Bytes(26874165), "26.9 MB"},
		{ru.Bytes(26874165), "26,9 МБ"},
		{en.Bytes(65742795690), "65.7 GB"},
		{en.Dur(0), "0 s"},
		{en.Dur(time.Millisecond), "1 ms"},
		{en.Dur(1500 * time.Microsecond), "1.5 ms"},
		{en.Dur(269741650 * time.Nanosecond), "270 ms"},
		{en.Dur(1282 * time.Millisecond), "1.282 s"},
		{ru.Dur(30027 * time.Millisecond), "30,027 с"},
		{en.Dur(time.Minute), "1 min"},
		{en.N(1, "n.controller"), "1 controller"},
		{en.N(50, "n.controller"), "50 controllers"},
		{ru.N(1, "n.controller"), "1 контроллер"},
		{ru.N(22, "n.pod"), "22 пода"},
		{ru.N(11, "n.node"), "11 нод"},
		{ru.N(10000, "n.pod"), "10\u00a0000 подов"},
		{ru.N(501, "n.node"), "501 нода"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// Every poll interval the command allows explains without a panic, and a
// ratio under ten keeps its noun (issue 29: from about 6 s the fractional
// ratio indexed a form that was not there).
func TestDocAcrossPollIntervals(t *testing.T) {
	for _, poll := range []time.Duration{watchload.MinPollInterval, time.Second, 6 * time.Second, 10 * time.Second, time.Minute, watchload.MaxPollInterval} {
		cfg := watchload.Config{Controllers: 50, Pods: 10000, Nodes: 500, PollInterval: poll, Duration: time.Minute, Seed: 1}
		r, err := watchload.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{"en", "ru"} {
			d := Doc(r, lang)
			if d == nil || len(d.Blocks) == 0 {
				t.Fatalf("%s %s: empty report", poll, lang)
			}
		}
	}
	if got := ratio(For("en"), 45, 10); got != "4.5 times" {
		t.Errorf("ratio 4.5 in English: %q", got)
	}
	if got := ratio(For("ru"), 45, 10); got != "4,5 раза" {
		t.Errorf("ratio 4.5 in Russian: %q", got)
	}
}
