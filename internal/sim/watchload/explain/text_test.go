package explain

import (
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // -update is a flag of every test binary
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
