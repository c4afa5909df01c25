package l10n

import (
	"math"
	"testing"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

func TestPluralRussianAndEnglish(t *testing.T) {
	ru := []struct {
		n    int64
		want string
	}{{0, "0 подов"}, {1, "1 под"}, {2, "2 пода"}, {4, "4 пода"}, {5, "5 подов"}, {11, "11 подов"},
		{12, "12 подов"}, {14, "14 подов"}, {21, "21 под"}, {22, "22 пода"}, {25, "25 подов"}, {101, "101 под"},
		{111, "111 подов"}, {1_000_001, "1\u00a0000\u00a0001 под"}}
	for _, c := range ru {
		if got := Count("ru", c.n, "под", "пода", "подов"); got != c.want {
			t.Errorf("ru %d: got %q, want %q", c.n, got, c.want)
		}
	}
	for n, want := range map[int64]string{0: "0 replicas", 1: "1 replica", 2: "2 replicas", 21: "21 replicas"} {
		if got := Count("en", n, "replica", "replicas"); got != want {
			t.Errorf("en %d: got %q, want %q", n, got, want)
		}
	}
	if got := Count("en", 12500, "pod", "pods"); got != "12,500 pods" {
		t.Errorf("grouping: %q", got)
	}
}

func TestDurationAndDecimal(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "30 с", 150 * time.Second: "2 мин 30 с", 1500 * time.Millisecond: "1,5 с",
		150 * time.Millisecond: "150 мс", 2 * time.Hour: "2 ч", 0: "0 с", 5 * time.Minute: "5 мин",
	} {
		if got := Duration("ru", d); got != want {
			t.Errorf("ru %v: got %q, want %q", d, got, want)
		}
	}
	if got := Duration("en", 150*time.Second); got != "2m30s" {
		t.Errorf("en: %q", got)
	}
	if got := Decimal("ru", 1.50, 2); got != "1,5" {
		t.Errorf("ru decimal: %q", got)
	}
	if got := Decimal("en", 0.333333, 2); got != "0.33" {
		t.Errorf("en decimal: %q", got)
	}
}

func TestFixed(t *testing.T) {
	if got := Fixed("ru", 2, 1); got != "2,0" {
		t.Errorf("ru: %q", got)
	}
	if got := Fixed("en", 2.25, 1); got != "2.2" && got != "2.3" {
		t.Errorf("en: %q", got)
	}
}

// Int groups digits as x/text's CLDR number formatting does, in both
// languages, for small, large and negative numbers.
func TestIntMatchesXText(t *testing.T) {
	printers := map[string]*message.Printer{"en": message.NewPrinter(language.English), "ru": message.NewPrinter(language.Russian)}
	ns := []int64{0, 7, -7, 999, -999, 1000, -1000, 4687, 12500, 99999, 100000, 999999, 1000000, 1234567, -1234567, 150000, math.MaxInt64, math.MinInt64}
	for n := int64(1); n < math.MaxInt64/7; n = n*7 + 3 {
		ns = append(ns, n, -n)
	}
	for lang, p := range printers {
		for _, n := range ns {
			if got, want := Int(lang, n), p.Sprintf("%d", n); got != want {
				t.Errorf("Int(%s, %d) = %q, x/text says %q", lang, n, got, want)
			}
		}
	}
}
