package explain

import (
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// Both catalogues have the same keys with the same placeholders, and
// plural placeholders carry CLDR's forms.
func TestCataloguesMatch(t *testing.T) {
	for _, err := range Catalog.Check() {
		t.Error(err)
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
