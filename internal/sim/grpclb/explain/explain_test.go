package explain

import (
	"regexp"
	"sort"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)

// Both catalogues have the same keys (Russian adds the "few" plural forms)
// and the same format verbs per key.
func TestCataloguesMatch(t *testing.T) {
	for k, v := range en {
		r, ok := ru[k]
		if !ok {
			t.Errorf("ru lacks %q", k)
			continue
		}
		a, b := verb.FindAllString(v, -1), verb.FindAllString(r, -1)
		sort.Strings(a)
		sort.Strings(b)
		if len(a) != len(b) {
			t.Errorf("%q: en verbs %v, ru %v", k, a, b)
			continue
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%q: en verbs %v, ru %v", k, a, b)
				break
			}
		}
	}
	for k := range ru {
		if _, ok := en[k]; !ok && !regexp.MustCompile(`\.few$`).MatchString(k) {
			t.Errorf("en lacks %q", k)
		}
	}
}

// Every combination renders in both languages without a missing entry,
// including the live shape.
func TestEveryShapeRenders(t *testing.T) {
	base := grpclb.Config{Clients: 3, Pods: 4, RPCs: 600, Duration: time.Minute, Seed: 3}
	cfgs := []grpclb.Config{base}
	all := base
	all.ScaleUp, all.MaxConnectionAge, all.KillPod, all.Envoy = 2, 10*time.Second, true, true
	cfgs = append(cfgs, all)
	live := grpclb.Run(base)
	live.Live = &grpclb.Live{Version: "1.85.0", Proxy: "127.0.0.1:1", Elapsed: time.Second, ProxyChoices: []int{0, 1, 1}}
	for _, lang := range []string{"en", "ru"} {
		for _, cfg := range cfgs {
			d := Build(grpclb.Run(cfg), lang)
			if len(d.Blocks) == 0 || d.Data == nil {
				t.Errorf("%s %+v: empty report", lang, cfg)
			}
		}
		if d := Build(live, lang); d.Data.(*Data).Run != "live" {
			t.Errorf("%s: live report says %q", lang, d.Data.(*Data).Run)
		}
	}
	if got := plural(catalogue("ru"), "pod", 22); got != "22 пода" {
		t.Errorf("plural(ru, pod, 22) = %q", got)
	}
	if got := plural(catalogue("ru"), "pod", 11); got != "11 подов" {
		t.Errorf("plural(ru, pod, 11) = %q", got)
	}
}
