package quiz

import (
	"os"
	"testing"
	"unicode/utf8"
)

func TestShortenKeepsWholeRunes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 60, "short"},
		{"Сколько членов etcd", 8, "Сколько…"},
		{"abcdef", 4, "abc…"},
	} {
		if got := shorten(tt.in, tt.n); got != tt.want || !utf8.ValidString(got) {
			t.Errorf("shorten(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestListDoc(t *testing.T) {
	b, err := Load(os.DirFS("testdata"))
	if err != nil {
		t.Fatal(err)
	}
	all := ListDoc(b, nil, "", false, "en", 1)
	items := all.Data.([]ListItem)
	if len(items) == 0 || len(all.Blocks) == 0 {
		t.Fatalf("the test bank listed %d questions", len(items))
	}
	some := ListDoc(b, []string{items[0].Topic}, "", true, "ru", 1)
	for _, it := range some.Data.([]ListItem) {
		if it.Topic != items[0].Topic || it.Tags == nil {
			t.Errorf("--topic %s listed %+v", items[0].Topic, it)
		}
	}
	if some.Title == all.Title {
		t.Errorf("--lang ru title %q is the English one", some.Title)
	}
}
