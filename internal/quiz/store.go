package quiz

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
)

// The files of the progress store.
const (
	LogFile   = "reviews.jsonl" // append-only, one Review per line
	StateFile = "state.json"    // derived from the log, rewritten atomically
	LockFile  = "quiz.lock"
)

// Store is the progress kept under one directory. Every operation takes the
// lock file, so concurrent sessions serialise and neither loses the other's
// answers; the state is re-read under the lock before each change.
type Store struct {
	Dir string
	// Warn receives problems that were repaired (a corrupt state file moved
	// aside, unreadable log lines skipped). Nil discards them.
	Warn func(string)

	// beforeRename, in tests, runs after the temporary file is written and
	// before it replaces the state; an error simulates a crash there.
	beforeRename func() error
	// decoded counts the log lines the last load decoded (tests: only
	// those after the state's checkpoint).
	decoded int
}

// StateDir resolves where progress lives: the configured directory, else
// $XDG_STATE_HOME/k8sexplain, else $HOME/.local/state/k8sexplain (the XDG
// Base Directory specification's default for state data).
func StateDir(configured string, getenv func(string) string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "k8sexplain"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "k8sexplain"), nil
	}
	return "", errors.New("no place to keep quiz progress: set HOME, XDG_STATE_HOME or quiz.state-dir (K8SEXPLAIN_QUIZ_STATE_DIR)")
}

func (s *Store) warn(format string, args ...any) {
	if s.Warn != nil {
		s.Warn(fmt.Sprintf(format, args...))
	}
}

// locked runs fn with the lock held. Every error of the store comes from
// the machine (a directory that cannot be made, /proc, a name over 255
// bytes, a symlink or a FIFO where a file should be, a full disk): it is an
// environment error, exit 4, never exit 3 (issue 29).
func (s *Store) locked(fn func() error) error {
	err := s.lockedRun(fn)
	if err == nil {
		return nil
	}
	var coded *exitcode.Error
	if errors.As(err, &coded) {
		return err
	}
	return &exitcode.Error{Code: exitcode.Environment, Err: err}
}

// openRegular opens a file of the store without following a symbolic link
// (a symlinked reviews.jsonl would have the quiz append to its target) and
// refuses anything but a regular file (a FIFO at state.json hung the quiz).
func openRegular(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|noFollow, perm)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link: k8sexplain keeps quiz progress in regular files only (remove it, or point quiz.state-dir elsewhere)", path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): k8sexplain keeps quiz progress in regular files only", path, fi.Mode().Type())
	}
	return f, nil
}

// readRegular reads a regular file of the store, at most limit bytes.
func readRegular(path string, limit int64, what string) ([]byte, error) {
	f, err := openRegular(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, &readcap.TooLarge{Name: path, Limit: limit, What: what}
	}
	return readcap.ReadAll(path, f, limit, what)
}

func (s *Store) lockedRun(fn func() error) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(filepath.Join(s.Dir, LockFile))
	if err != nil {
		return fmt.Errorf("lock %s: %w", s.Dir, err)
	}
	defer unlock()
	s.removeStaleTemp()
	return fn()
}

// removeStaleTemp deletes state.json.tmp-* files a killed session left
// behind (writeAtomic removes its own; only a kill -9 between create and
// rename leaves one). Called with the lock held, so no writer is active.
func (s *Store) removeStaleTemp() {
	stale, _ := filepath.Glob(filepath.Join(s.Dir, StateFile+".tmp-*"))
	for _, p := range stale {
		_ = os.Remove(p)
	}
}

// Load returns the current state, repairing it from the log when needed.
func (s *Store) Load() (*State, error) {
	var st *State
	err := s.locked(func() (err error) {
		st, err = s.load()
		return err
	})
	return st, err
}

// Record appends reviews to the log (synced before anything else), then
// brings the state file up to date, and returns the new state.
func (s *Store) Record(rs ...Review) (*State, error) {
	var st *State
	err := s.locked(func() (err error) {
		if err := s.appendLog(rs); err != nil {
			return err
		}
		st, err = s.load()
		return err
	})
	return st, err
}

// Reset deletes the log and the state.
func (s *Store) Reset() error {
	return s.locked(func() error {
		for _, name := range []string{LogFile, StateFile} {
			if err := os.Remove(filepath.Join(s.Dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		return nil
	})
}

// Limits of the store's own files: a review line is about 200 bytes, so
// the log holds some 300,000 answers; the state has one card per question.
const (
	MaxLogBytes   = 64 << 20
	MaxStateBytes = 16 << 20
	// MaxReviewSeconds bounds one answer's time: a week.
	MaxReviewSeconds = 7 * 24 * 3600
)

// logEntry is one complete line of the review log: the review, or nil for
// a line that does not parse (or dates a review outside EarliestTime to
// LatestTime), with why.
type logEntry struct {
	review *Review
	bad    string
}

// load reads the state file and checks that the log justifies it: its
// checkpoint (State.Log) must match the log's first Applied lines and the
// state itself, so only the lines after them are decoded and replayed
// (issue 26 §3: `quiz stats` no longer replays the whole log to check
// the file). A state written before checkpoints is checked the old way:
// the first Applied lines, replayed, must give exactly that state. A
// state the log does not justify (unreadable, an unknown version, Applied
// out of range, a checkpoint or cards that do not match) is moved aside
// and rebuilt from the whole log. The state is rewritten if anything
// changed. Called with the lock held.
func (s *Store) load() (*State, error) {
	path := filepath.Join(s.Dir, StateFile)
	log, err := s.readLog()
	if err != nil {
		return nil, err
	}
	s.decoded = 0
	lines := bytes.Count(log, []byte("\n"))
	var file *State
	data, err := readRegular(path, MaxStateBytes, "the quiz state")
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil && !errors.Is(err, readcap.ErrTooLarge):
		s.warn("cannot read %s (%v); rebuilding it from the review log", path, err)
		s.moveAside(path)
	default:
		st, why := NewState(), err
		if why == nil {
			why = json.Unmarshal(data, st)
		}
		if why == nil {
			why = st.check(lines)
		}
		if why == nil {
			why = s.justified(st, log)
		}
		if why != nil {
			aside := s.moveAside(path)
			s.warn("%s is corrupt (%v); moved it to %s and rebuilt it from the review log", path, why, aside)
		} else {
			file = st
		}
	}
	st, from := file, 0
	if st == nil {
		st = NewState()
	} else {
		from = lineOffset(log, st.Applied)
	}
	for i, e := range s.parseLog(log[from:]) {
		st.applyEntry(st.Applied+i, e, s.warnBad)
	}
	if file != nil && file.Applied == lines {
		return st, nil
	}
	st.Applied = lines
	st.Log = checkpoint(st, log)
	out, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return nil, err
	}
	if err := s.writeAtomic(path, append(out, '\n')); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return st, nil
}

// justified reports why the log does not justify st, or nil: st's
// checkpoint must cover exactly its Applied lines of the log and sum them
// with st; without a checkpoint (a state file from before them) those
// lines are replayed and must give st.
func (s *Store) justified(st *State, log []byte) error {
	mismatch := fmt.Errorf("it does not match the first %d lines of %s", st.Applied, LogFile)
	if st.Log == nil {
		if !sameState(st, replay(s.parseLog(log[:lineOffset(log, st.Applied)]), nil)) {
			return mismatch
		}
		return nil
	}
	if st.Log.Bytes != int64(lineOffset(log, st.Applied)) || checkpoint(st, log).Sum != st.Log.Sum {
		return mismatch
	}
	return nil
}

// lineOffset is where line n (0-based) of the log starts: the length of
// its first n lines. n is at most the log's complete lines.
func lineOffset(log []byte, n int) int {
	off := 0
	for ; n > 0; n-- {
		off += bytes.IndexByte(log[off:], '\n') + 1
	}
	return off
}

// checkpoint is st's Log for the first st.Applied lines of log: their
// length, and the SHA-256 of those lines followed by st's JSON (without
// its checkpoint), so a change to either is seen without a replay.
func checkpoint(st *State, log []byte) *Checkpoint {
	n := lineOffset(log, st.Applied)
	c := *st
	c.Log = nil
	own, _ := json.Marshal(&c) // strings, numbers and times in range: cannot fail
	h := sha256.New()
	h.Write(log[:n])
	h.Write(own)
	return &Checkpoint{Bytes: int64(n), Sum: hex.EncodeToString(h.Sum(nil))}
}

func (s *Store) warnBad(n int, why string) {
	s.warn("%s line %d %s; skipping it", filepath.Join(s.Dir, LogFile), n+1, why)
}

// replay builds the state the entries give; warn (if not nil) hears of the
// lines skipped.
func replay(entries []logEntry, warn func(int, string)) *State {
	st := NewState()
	for n, e := range entries {
		st.applyEntry(n, e, warn)
	}
	st.Applied = len(entries)
	return st
}

func (st *State) applyEntry(n int, e logEntry, warn func(int, string)) {
	if e.review == nil {
		if warn != nil {
			warn(n, e.bad)
		}
		return
	}
	st.Apply(*e.review)
}

// sameState compares two states as the state file stores them.
func sameState(a, b *State) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// readLog returns the complete lines of the log. A last line without its
// newline is a write cut short by a crash and is ignored.
func (s *Store) readLog() ([]byte, error) {
	path := filepath.Join(s.Dir, LogFile)
	data, err := readRegular(path, MaxLogBytes, "the quiz review log")
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return data[:bytes.LastIndexByte(data, '\n')+1], nil
}

// parseLog returns one entry per line of log (complete lines only).
func (s *Store) parseLog(log []byte) []logEntry {
	complete := bytes.Count(log, []byte("\n"))
	lines := bytes.SplitN(log, []byte("\n"), complete+1)[:complete]
	s.decoded += len(lines)
	out := make([]logEntry, len(lines))
	for n, line := range lines {
		r := &Review{}
		switch err := json.Unmarshal(line, r); {
		case err != nil || r.ID == "":
			out[n].bad = "is unreadable"
		case CheckTime(r.At) != nil:
			out[n].bad = "dates a review outside " + timeRange()
		case !(r.Score >= 0 && r.Score <= 1):
			// A score of 1e308 made `quiz stats --format json` write +Inf
			// and exit 3 (issue 29).
			out[n].bad = fmt.Sprintf("has score %g, outside 0 to 1", r.Score)
		case !(r.Seconds >= 0 && r.Seconds <= MaxReviewSeconds):
			out[n].bad = fmt.Sprintf("has seconds %g, outside 0 to %d", r.Seconds, MaxReviewSeconds)
		case r.Rating < 0 || r.Rating > 4:
			out[n].bad = fmt.Sprintf("has rating %d, outside 1 to 4 (0: from the score)", r.Rating)
		default:
			out[n].review = r
		}
	}
	return out
}

// appendLog writes reviews as JSON lines with O_APPEND and syncs. If the
// log ends in a torn line, a newline first closes it off.
func (s *Store) appendLog(rs []Review) error {
	path := filepath.Join(s.Dir, LogFile)
	f, err := openRegular(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			buf.WriteByte('\n')
		}
	}
	for _, r := range rs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// writeAtomic writes data to a temporary file in the same directory, syncs
// it, renames it over path and syncs the directory: a reader sees the old
// file or the new one, never a half-written one.
func (s *Store) writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, bytes.NewReader(data)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if s.beforeRename != nil {
		if err := s.beforeRename(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// moveAside renames a bad file to the first free name.corrupt[.N] and
// returns that name.
func (s *Store) moveAside(path string) string {
	aside := path + ".corrupt"
	for i := 1; ; i++ {
		if _, err := os.Lstat(aside); errors.Is(err, os.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s.corrupt.%d", path, i)
	}
	if err := os.Rename(path, aside); err != nil {
		s.warn("cannot move %s aside: %v", path, err)
	}
	return aside
}
