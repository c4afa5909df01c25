package quiz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

func (s *Store) locked(fn func() error) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(filepath.Join(s.Dir, LockFile))
	if err != nil {
		return fmt.Errorf("lock %s: %w", s.Dir, err)
	}
	defer unlock()
	return fn()
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

// load reads the state file (moving a corrupt one aside), replays the log
// lines it does not reflect yet, and rewrites it if anything changed.
// Called with the lock held.
func (s *Store) load() (*State, error) {
	path := filepath.Join(s.Dir, StateFile)
	st := NewState()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		s.warn("cannot read %s (%v); rebuilding it from the review log", path, err)
		s.moveAside(path)
	default:
		if jerr := json.Unmarshal(data, st); jerr != nil || st.Version != stateVersion || st.Cards == nil {
			if jerr == nil {
				jerr = fmt.Errorf("unknown version %d", st.Version)
			}
			aside := s.moveAside(path)
			s.warn("%s is corrupt (%v); moved it to %s and rebuilt it from the review log", path, jerr, aside)
			st = NewState()
		}
	}
	lines, err := s.countLog()
	if err != nil {
		return nil, err
	}
	if st.Applied > lines {
		s.warn("%s reflects more reviews than the log holds; rebuilding it from the log", path)
		st = NewState()
	}
	if st.Applied == lines {
		return st, nil
	}
	reviews, lines, err := s.readLog(st.Applied)
	if err != nil {
		return nil, err
	}
	for _, r := range reviews {
		if r != nil {
			st.Apply(*r)
		}
	}
	st.Applied = lines
	out, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return nil, err
	}
	if err := s.writeAtomic(path, append(out, '\n')); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return st, nil
}

// readLog returns one entry per complete line from line number from on
// (nil for a line that does not parse, with a warning; lines before from
// were applied already and are not parsed again) and the number of complete
// lines. A last line without its newline is a write cut short by a crash and
// is ignored.
func (s *Store) readLog(from int) ([]*Review, int, error) {
	path := filepath.Join(s.Dir, LogFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	complete := bytes.Count(data, []byte("\n"))
	lines := bytes.SplitN(data, []byte("\n"), complete+1)[:complete]
	var out []*Review
	for n := from; n < len(lines); n++ {
		r := &Review{}
		if err := json.Unmarshal(lines[n], r); err != nil || r.ID == "" {
			s.warn("%s line %d is unreadable; skipping it", path, n+1)
			r = nil
		}
		out = append(out, r)
	}
	return out, complete, nil
}

// countLog returns the number of complete lines in the log.
func (s *Store) countLog() (int, error) {
	data, err := os.ReadFile(filepath.Join(s.Dir, LogFile))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	return bytes.Count(data, []byte("\n")), err
}

// appendLog writes reviews as JSON lines with O_APPEND and syncs. If the
// log ends in a torn line, a newline first closes it off.
func (s *Store) appendLog(rs []Review) error {
	path := filepath.Join(s.Dir, LogFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
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
