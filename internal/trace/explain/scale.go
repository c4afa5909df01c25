package explain

import (
	"fmt"
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// countRows turns counts by component into table rows in name order, with
// per-node components folded beyond a handful as in the requests table
// (requestRows), and returns the total.
func countRows(counts map[string]int, lang string) ([][]string, int) {
	keys := make([]string, 0, len(counts))
	total := 0
	for k, n := range counts {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	return requestRows(counts, keys, lang), total
}

// scaleUI is the text of the scale section, with {placeholders}.
type scaleUI struct {
	title, watch, bytes, sched, slices, proxy, sampled, steps, stepsAll, count string
}

var scaleEN = scaleUI{
	title: "Scale",
	watch: "Watch events delivered, by watching component (every write reaches every matching watch: the fan-out is writes × watchers):",
	bytes: "Bytes encoded: {enc} (each object written, protobuf, encoded once as the watch cache does); bytes sent to watchers: {sent}.",
	sched: "Scheduler: {pods} pods bound in {span} of virtual time, {rate} pods/s (upstream scheduler_perf SchedulingBasic 5000Nodes_50000Pods requires ≥ 790 pods/s; this scheduler spends a fixed 1 ms per cycle). " +
		"SLO to compare: pod startup p99 ≤ 5 s on a 5,000-node cluster (sig-scalability), API mutating calls p99 ≤ 1 s.",
	slices:   "EndpointSlice controller: {writes} slice writes for {slices} slice(s) of at most {max} endpoints ({perpod} writes per pod, --endpoint-updates-batch-period {batch}); each write goes to every kube-proxy.",
	proxy:    "kube-proxy on the first worker: {syncs} rule rewrites, {eps} endpoint rules written in all, the largest sync {largest} endpoints — each sync rewrites a changed Service's whole chain, so sync cost grows with the rule count (upstream: --iptables-min-sync-period batches changes; nftables mode syncs incrementally).",
	sampled:  "Sampled: kube-proxy is simulated on {sim} node(s); the other {counted} nodes' kube-proxies are counted (their watch deliveries are in the counts above), not run — their work is identical.",
	steps:    "Steps: {kept} kept (limit {limit}), {counted} more counted but not built.",
	stepsAll: "Steps: none kept (--summary), {counted} counted.",
	count:    "events",
}

var scaleRU = scaleUI{
	title: "Масштаб",
	watch: "Доставлено watch-событий по наблюдающим компонентам (каждая запись доходит до каждого подходящего watch: веер = записи × наблюдатели):",
	bytes: "Закодировано байт: {enc} (каждый записанный объект, protobuf, кодируется один раз, как в watch cache); отправлено наблюдателям: {sent}.",
	sched: "Планировщик: {pods} подов привязано за {span} виртуального времени, {rate} подов/с (в upstream scheduler_perf SchedulingBasic 5000Nodes_50000Pods требует ≥ 790 подов/с; здесь цикл занимает фиксированную 1 мс). " +
		"SLO для сравнения: запуск пода p99 ≤ 5 с в кластере на 5000 нод (sig-scalability), изменяющие вызовы API p99 ≤ 1 с.",
	slices:   "Контроллер EndpointSlice: {writes} записей слайсов для {slices} слайс(ов) по не более чем {max} эндпоинтов ({perpod} записи на под, --endpoint-updates-batch-period {batch}); каждая запись уходит каждому kube-proxy.",
	proxy:    "kube-proxy на первой рабочей ноде: {syncs} перезаписей правил, всего записано {eps} правил эндпоинтов, крупнейшая синхронизация — {largest} эндпоинтов: каждая синхронизация переписывает всю цепочку изменившегося Service, так что её цена растёт с числом правил (в upstream изменения копит --iptables-min-sync-period; режим nftables синхронизирует инкрементально).",
	sampled:  "Выборка: kube-proxy моделируется на {sim} нод(ах); kube-proxy остальных {counted} нод посчитаны (их watch-доставки входят в счёт выше), но не исполняются — их работа одинакова.",
	steps:    "Шаги: сохранено {kept} (лимит {limit}), ещё {counted} посчитаны, но не построены.",
	stepsAll: "Шаги: не сохраняются (--summary), посчитано {counted}.",
	count:    "событий",
}

// scaleSection renders the Scale section of the summary.
func scaleSection(d *report.Doc, sc *trace.Scale, lang string) {
	u := scaleEN
	if lang == "ru" {
		u = scaleRU
	}
	d.H(2, u.title)
	rows, total := countRows(sc.WatchEvents, lang)
	rows = append(rows, []string{"Σ", fmt.Sprint(total)})
	d.P(u.watch)
	d.T(&report.Table{Header: []string{trace.UIFor(lang).Component, u.count}, Right: []bool{false, true}, Rows: rows})
	var lines []string
	lines = append(lines, subst(u.bytes, "enc", bytesText(sc.BytesEncoded), "sent", bytesText(sc.BytesSent)))
	if sc.Scheduled > 0 {
		span := sc.LastBind - sc.FirstBind
		rate := "—"
		if span > 0 {
			rate = fmt.Sprintf("%.0f", float64(sc.Scheduled-1)/span.Seconds())
		}
		lines = append(lines, subst(u.sched, "pods", fmt.Sprint(sc.Scheduled), "span", span.Round(time.Millisecond).String(), "rate", rate))
	}
	if sc.SliceWrites > 0 {
		per := "—"
		if sc.Pods > 0 {
			per = fmt.Sprintf("%.2f", float64(sc.SliceWrites)/float64(sc.Pods))
		}
		lines = append(lines, subst(u.slices, "writes", fmt.Sprint(sc.SliceWrites), "slices", fmt.Sprint(sc.Slices),
			"max", fmt.Sprint(sc.MaxEndpointsPerSlice), "perpod", per, "batch", sc.BatchPeriod.String()))
	}
	lines = append(lines, subst(u.proxy, "syncs", fmt.Sprint(sc.ProxySyncs), "eps", fmt.Sprint(sc.ProxyEndpointsWritten), "largest", fmt.Sprint(sc.ProxyLargestSync)))
	if sc.ProxiesCounted > 0 {
		lines = append(lines, subst(u.sampled, "sim", fmt.Sprint(sc.ProxiesSimulated), "counted", fmt.Sprint(sc.ProxiesCounted)))
	}
	if sc.StepLimit < 0 {
		lines = append(lines, subst(u.stepsAll, "counted", fmt.Sprint(sc.StepsCounted)))
	} else if sc.StepsCounted > 0 {
		lines = append(lines, subst(u.steps, "kept", fmt.Sprint(sc.StepsKept), "limit", fmt.Sprint(sc.StepLimit), "counted", fmt.Sprint(sc.StepsCounted)))
	}
	d.L(lines...)
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
