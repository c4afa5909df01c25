package quiz

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A state.json the log does not justify is corrupt: moved aside, rebuilt
// from the log, with one warning; every quiz command keeps working.
func TestStoreStateNotJustified(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(st map[string]any)
		want string
	}{
		{"applied -1", func(st map[string]any) { st["applied"] = -1 }, "applied -1"},
		{"applied past the log", func(st map[string]any) { st["applied"] = 99 }, "applied 99"},
		{"a null card", func(st map[string]any) { st["cards"].(map[string]any)["x"] = nil }, `card "x" is null`},
		{"a card the log never saw", func(st map[string]any) {
			st["cards"].(map[string]any)["ghost"] = map[string]any{"topic": "etcd", "reviews": 1}
		}, "does not match"},
		{"a due date far in the future", func(st map[string]any) {
			c := st["cards"].(map[string]any)["a"].(map[string]any)["card"].(map[string]any)
			c["Due"] = "9999-12-30T00:00:00Z"
		}, "does not match"},
		{"an unknown version", func(st map[string]any) { st["version"] = 7 }, "unknown version 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var warnings []string
			s := &Store{Dir: dir, Warn: func(w string) { warnings = append(warnings, w) }}
			want, err := s.Record(review("a", 1, t0), review("b", 0, t0))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, StateFile)
			data, _ := os.ReadFile(path)
			var raw map[string]any
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			tc.edit(raw)
			bad, _ := json.Marshal(raw)
			os.WriteFile(path, bad, 0o600)
			got, err := s.Load()
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if !sameState(got, want) {
				t.Errorf("not rebuilt from the log: %+v", got)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], "corrupt") || !strings.Contains(warnings[0], tc.want) {
				t.Errorf("warnings %q, want one naming %q", warnings, tc.want)
			}
			if kept, _ := os.ReadFile(path + ".corrupt"); string(kept) != string(bad) {
				t.Errorf("the bad state was not kept aside")
			}
			if _, err := s.Load(); err != nil || len(warnings) != 1 {
				t.Errorf("the rebuilt state is not accepted: %v %q", err, warnings)
			}
		})
	}
}

// A review dated outside the accepted range (a --now of 9999-12-30 before
// it was validated) is skipped with a warning instead of breaking every
// later command.
func TestStoreFarFutureReview(t *testing.T) {
	dir := t.TempDir()
	var warnings []string
	s := &Store{Dir: dir, Warn: func(w string) { warnings = append(warnings, w) }}
	far := time.Date(9999, 12, 30, 0, 0, 0, 0, time.UTC)
	if _, err := s.Record(review("a", 1, far)); err != nil {
		t.Fatalf("record: %v", err)
	}
	st, err := s.Record(review("b", 1, t0))
	if err != nil || st.Applied != 2 || st.Cards["a"] != nil || st.Cards["b"] == nil {
		t.Fatalf("state %+v, %v", st, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 1 dates a review outside 2000-01-01 to 2200-01-01") {
		t.Errorf("warnings %q", warnings)
	}
	if CheckTime(far) == nil || CheckTime(t0) != nil || CheckTime(time.Time{}) == nil {
		t.Error("CheckTime: wrong range")
	}
}

// A temporary state file left by a kill -9 is removed on the next start.
func TestStoreRemovesStaleTemp(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, StateFile+".tmp-123456"), []byte("{half"), 0o600)
	if _, err := (&Store{Dir: dir}).Load(); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(m) != 0 {
		t.Errorf("stale temporary files left: %v", m)
	}
}

// The store's files are read with a limit; a log past it is an error that
// names the file and the limit.
func TestStoreLogLimit(t *testing.T) {
	dir := t.TempDir()
	f, _ := os.Create(filepath.Join(dir, LogFile))
	f.Truncate(MaxLogBytes + 1)
	f.Close()
	_, err := (&Store{Dir: dir}).Load()
	if err == nil || !strings.Contains(err.Error(), "reviews.jsonl: larger than 64 MiB, the limit for the quiz review log") {
		t.Fatalf("err %v", err)
	}
}

// FuzzStateLoad loads arbitrary state.json and reviews.jsonl contents: no
// panic, and the result is a state the log justifies, which the store can
// write and read back without a warning. Seeds are in
// testdata/fuzz/FuzzStateLoad.
func FuzzStateLoad(f *testing.F) {
	good := `{"id":"a","topic":"etcd","at":"2026-03-02T09:00:00Z","score":1,"rating":4,"seconds":3}` + "\n"
	f.Add(`{"version":1,"applied":-1,"cards":{},"days":[]}`, good)
	f.Add(`{"version":1,"applied":1,"cards":{"a":null},"days":[]}`, good)
	f.Add(`{garbage`, good+`{"id":"b","at":"9999-12-30T00:00:00Z","score":0.5}`+"\n")
	f.Add(``, `{"id":"c","at":"0001-01-01T00:00:00Z"}`+"\n"+`{"id":"half`)
	f.Fuzz(func(t *testing.T, state, log string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, StateFile), []byte(state), 0o600)
		os.WriteFile(filepath.Join(dir, LogFile), []byte(log), 0o600)
		s := &Store{Dir: dir}
		st, err := s.Load()
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		if st.Applied != strings.Count(log, "\n") {
			t.Fatalf("applied %d for %d log lines", st.Applied, strings.Count(log, "\n"))
		}
		var warned []string
		again, err := (&Store{Dir: dir, Warn: func(w string) { warned = append(warned, w) }}).Load()
		if err != nil || !sameState(st, again) || len(warned) != 0 {
			t.Fatalf("reload: %v, warnings %q", err, warned)
		}
	})
}

// Numbers out of range in the review log are refused on load with the line
// number, and stats stay finite (issue 29: a score of 1e308 reached
// `quiz stats --format json` as +Inf and exited 3).
func TestStoreRefusesOutOfRangeNumbers(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"id":"b","topic":"etcd","at":"2026-01-02T00:00:00Z","score":1e308,"rating":3,"seconds":4}`, "line 2 has score 1e+308, outside 0 to 1"},
		{`{"id":"b","topic":"etcd","at":"2026-01-02T00:00:00Z","score":-0.5,"rating":3,"seconds":4}`, "line 2 has score -0.5"},
		{`{"id":"b","topic":"etcd","at":"2026-01-02T00:00:00Z","score":1,"rating":3,"seconds":1e300}`, "line 2 has seconds 1e+300"},
		{`{"id":"b","topic":"etcd","at":"2026-01-02T00:00:00Z","score":1,"rating":99,"seconds":4}`, "line 2 has rating 99"},
	} {
		dir := t.TempDir()
		var warnings []string
		s := &Store{Dir: dir, Warn: func(w string) { warnings = append(warnings, w) }}
		if _, err := s.Record(review("a", 1, t0)); err != nil {
			t.Fatal(err)
		}
		f, _ := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(tc.line + "\n")
		f.Close()
		st, err := s.Load()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Cards) != 1 || st.Cards["b"] != nil {
			t.Errorf("%s: the bad line was applied: %+v", tc.line, st.Cards)
		}
		if _, err := json.Marshal(st); err != nil {
			t.Errorf("%s: state does not encode: %v", tc.line, err)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], tc.want) {
			t.Errorf("warnings %q, want one with %q", warnings, tc.want)
		}
	}
}

// A load decodes only the log lines after the state's checkpoint: the
// whole log is replayed only when there is no state or it is corrupt
// (issue 26 §3: `quiz stats` replayed all of it to check the file).
func TestStoreReplaysOnlyAfterTheCheckpoint(t *testing.T) {
	dir := t.TempDir()
	s := &Store{Dir: dir}
	var rs []Review
	for i := range 50 {
		rs = append(rs, review(fmt.Sprintf("q%d", i), 1, t0))
	}
	if _, err := s.Record(rs...); err != nil {
		t.Fatal(err)
	}
	if s.decoded != 50 {
		t.Errorf("first load decoded %d lines, want all 50 (no state yet)", s.decoded)
	}
	st, err := s.Record(review("q0", 0.5, t0.Add(time.Hour)))
	if err != nil || st.Applied != 51 {
		t.Fatalf("record: %+v %v", st, err)
	}
	if s.decoded != 1 {
		t.Errorf("record decoded %d lines, want only the new one", s.decoded)
	}
	if _, err := s.Load(); err != nil || s.decoded != 0 {
		t.Errorf("load of an up-to-date state decoded %d lines (%v), want none", s.decoded, err)
	}
	// The checkpoint still catches a log rewritten under the state.
	log := filepath.Join(dir, LogFile)
	data, _ := os.ReadFile(log)
	os.WriteFile(log, []byte(strings.Replace(string(data), `"score":1`, `"score":0`, 1)), 0o600)
	var warnings []string
	s.Warn = func(w string) { warnings = append(warnings, w) }
	if st, err := s.Load(); err != nil || st.Cards["q0"].Reviews != 2 || len(warnings) != 1 || !strings.Contains(warnings[0], "does not match the first 51 lines") || s.decoded != 51 {
		t.Errorf("rewritten log: %v, warnings %q, decoded %d", err, warnings, s.decoded)
	}
}

// BenchmarkStoreLoad loads an up-to-date state over a log of 20,000
// reviews (what `quiz stats` does first).
func BenchmarkStoreLoad(b *testing.B) {
	s := &Store{Dir: b.TempDir()}
	var rs []Review
	for i := range 20000 {
		rs = append(rs, review(fmt.Sprintf("q%d", i%500), float64(i%3)/2, t0.Add(time.Duration(i)*time.Minute)))
	}
	if _, err := s.Record(rs...); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Load(); err != nil {
			b.Fatal(err)
		}
	}
}
