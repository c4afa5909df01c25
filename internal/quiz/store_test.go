package quiz

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func review(id string, score float64, at time.Time) Review {
	return Review{ID: id, Topic: "etcd", At: at, Score: score, Rating: int(Rating(score))}
}

func TestStoreRecordAndReload(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	st, err := s.Record(review("a", 1, t0), review("b", 0, t0))
	if err != nil {
		t.Fatal(err)
	}
	if st.Applied != 2 || st.Cards["a"].Reviews != 1 || st.Cards["b"].LastScore != 0 {
		t.Fatalf("state after record: %+v", st)
	}
	if !st.Cards["a"].Card.Due.After(st.Cards["b"].Card.Due) {
		t.Errorf("an easy card should be due later than a failed one: %v vs %v", st.Cards["a"].Card.Due, st.Cards["b"].Card.Due)
	}
	again, err := (&Store{Dir: s.Dir}).Load()
	if err != nil || again.Applied != 2 || len(again.Cards) != 2 {
		t.Fatalf("reload: %+v, %v", again, err)
	}
	if st.Streak(t0) != 1 || st.Streak(t0.AddDate(0, 0, 1)) != 1 || st.Streak(t0.AddDate(0, 0, 2)) != 0 {
		t.Errorf("streak wrong")
	}
}

// A crash after the temporary file is written but before the rename leaves
// the previous state readable, and the next load replays the logged review.
func TestStoreCrashBeforeRename(t *testing.T) {
	dir := t.TempDir()
	s := &Store{Dir: dir}
	if _, err := s.Record(review("a", 1, t0)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, StateFile))
	s.beforeRename = func() error { return errors.New("simulated crash") }
	if _, err := s.Record(review("b", 1, t0)); err == nil {
		t.Fatal("want the simulated crash")
	}
	after, _ := os.ReadFile(filepath.Join(dir, StateFile))
	if string(before) != string(after) {
		t.Fatal("the state file changed although its write was interrupted")
	}
	st, err := (&Store{Dir: dir}).Load()
	if err != nil || st.Applied != 2 || st.Cards["b"] == nil {
		t.Fatalf("the logged review was not replayed: %+v %v", st, err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// A log line torn by a crash is ignored, closed off by the next append, and
// skipped with a warning from then on.
func TestStoreTornLogLine(t *testing.T) {
	dir := t.TempDir()
	var warnings []string
	s := &Store{Dir: dir, Warn: func(w string) { warnings = append(warnings, w) }}
	if _, err := s.Record(review("a", 1, t0)); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"half`)
	f.Close()
	if st, err := s.Load(); err != nil || st.Applied != 1 {
		t.Fatalf("torn line: %+v %v", st, err)
	}
	st, err := s.Record(review("c", 1, t0))
	if err != nil || st.Cards["c"] == nil || st.Applied != 3 {
		t.Fatalf("after torn line: %+v %v", st, err)
	}
	if _, err := s.Load(); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 2") {
		t.Errorf("want one warning about line 2, once: %q", warnings)
	}
}

func TestStoreCorruptState(t *testing.T) {
	for name, content := range map[string]string{
		"garbage":   "{not json",
		"truncated": `{"version":1,"applied":1,"cards":{"a":`,
		"version":   `{"version":99,"applied":0,"cards":{}}`,
		"empty":     "",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var warnings []string
			s := &Store{Dir: dir, Warn: func(w string) { warnings = append(warnings, w) }}
			if _, err := s.Record(review("a", 1, t0), review("b", 0.5, t0)); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, StateFile), []byte(content), 0o600)
			st, err := s.Load()
			if err != nil || len(st.Cards) != 2 || st.Applied != 2 {
				t.Fatalf("not rebuilt: %+v %v", st, err)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], "corrupt") {
				t.Errorf("warnings = %q", warnings)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, StateFile+".corrupt")); string(got) != content {
				t.Errorf("corrupt file not kept aside: %q", got)
			}
		})
	}
}

func TestStoreUnreadableStateIsADirectory(t *testing.T) {
	dir := t.TempDir()
	s := &Store{Dir: dir, Warn: func(string) {}}
	s.Record(review("a", 1, t0))
	os.Remove(filepath.Join(dir, StateFile))
	os.Mkdir(filepath.Join(dir, StateFile), 0o700)
	st, err := s.Load()
	if err != nil || st.Cards["a"] == nil {
		t.Fatalf("%+v %v", st, err)
	}
}

// Sessions in parallel (each with its own Store, as two processes would
// have) lose none of each other's reviews.
func TestStoreConcurrentSessions(t *testing.T) {
	dir := t.TempDir()
	const sessions, each = 6, 15
	var wg sync.WaitGroup
	errs := make(chan error, sessions*each)
	for i := 0; i < sessions; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s := &Store{Dir: dir}
			for j := 0; j < each; j++ {
				if _, err := s.Record(review(fmt.Sprintf("q%d-%d", i, j), 1, t0)); err != nil {
					errs <- err
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st, err := (&Store{Dir: dir}).Load()
	if err != nil || len(st.Cards) != sessions*each || st.Applied != sessions*each {
		t.Fatalf("lost reviews: %d cards, applied %d, %v", len(st.Cards), st.Applied, err)
	}
}

func TestStoreReset(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	s.Record(review("a", 1, t0))
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Load(); err != nil || len(st.Cards) != 0 {
		t.Fatalf("after reset: %+v %v", st, err)
	}
}

func TestStateDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		conf string
		env  map[string]string
		want string
	}{
		{"/c", map[string]string{"HOME": "/h"}, "/c"},
		{"", map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/k8sexplain"},
		{"", map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/k8sexplain"},
		{"", map[string]string{}, ""},
	} {
		got, err := StateDir(tc.conf, env(tc.env))
		if got != filepath.FromSlash(tc.want) || (tc.want == "") != (err != nil) {
			t.Errorf("StateDir(%q, %v) = %q, %v", tc.conf, tc.env, got, err)
		}
	}
}

// A review dated before the card's last one (a clock set back) must not
// wrap go-fsrs's uint64 day count into a schedule centuries away.
func TestStateReviewOutOfOrder(t *testing.T) {
	st := NewState()
	st.Apply(review("a", 1, t0))
	st.Apply(review("a", 1, t0.Add(-48*time.Hour)))
	if due := st.Cards["a"].Card.Due; due.After(t0.AddDate(5, 0, 0)) {
		t.Fatalf("due %v", due)
	}
}

// Real processes, as two terminals would be: each child test process
// records its reviews into the same directory; none may be lost.
func TestStoreConcurrentProcesses(t *testing.T) {
	if dir := os.Getenv("K8SEXPLAIN_TEST_STORE_CHILD"); dir != "" {
		s := &Store{Dir: dir}
		for j := 0; j < 20; j++ {
			if _, err := s.Record(review(fmt.Sprintf("p%d-%d", os.Getpid(), j), 1, t0)); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	const children = 4
	cmds := make([]*exec.Cmd, children)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestStoreConcurrentProcesses$", "-test.count=1")
		cmds[i].Env = append(os.Environ(), "K8SEXPLAIN_TEST_STORE_CHILD="+dir)
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	st, err := (&Store{Dir: dir}).Load()
	if err != nil || len(st.Cards) != children*20 || st.Applied != children*20 {
		t.Fatalf("lost reviews across processes: %d cards, applied %d, %v", len(st.Cards), st.Applied, err)
	}
}

// The lock file is exclusive: a second session's write waits for the first
// to finish its read-modify-write.
func TestStoreLockExcludes(t *testing.T) {
	dir := t.TempDir()
	holder := &Store{Dir: dir}
	done := make(chan error, 1)
	err := holder.locked(func() error {
		go func() { _, err := (&Store{Dir: dir}).Record(review("a", 1, t0)); done <- err }()
		select {
		case <-done:
			return errors.New("a write went through while another session held the lock")
		case <-time.After(100 * time.Millisecond):
			return nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting write never got the lock")
	}
}
