// Package readcap reads files and streams with a limit that fits their
// purpose, so that `--config /dev/zero` or a runaway pipe ends with a
// one-line error naming the file and the limit instead of eating memory.
package readcap

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Limits of the files k8sexplain reads besides manifests (those are in
// internal/manifest/limits.go).
const (
	// Config is the largest config file: a handful of keys.
	Config = 1 << 20
	// Answers is the largest --answers sheet: a few hundred questions
	// with free-text answers.
	Answers = 4 << 20
	// Line is the longest answer line read from stdin (and the --reset
	// confirmation): a free-text answer is a paragraph at most.
	Line = 64 << 10
)

// ErrTooLarge is wrapped by the errors of reads past their limit.
var ErrTooLarge = errors.New("too large")

// TooLarge is the error of a read past its limit: it names the file, the
// limit and what the limit is for.
type TooLarge struct {
	Name  string
	Limit int64
	What  string
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("%s: larger than %s, the limit for %s", e.Name, Size(e.Limit), e.What)
}

func (e *TooLarge) Unwrap() error { return ErrTooLarge }

// Size prints a byte count the way the errors show it: "1 MiB", "64 KiB".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadAll reads r to the end, or fails with *TooLarge past limit bytes.
func ReadAll(name string, r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLarge{Name: name, Limit: limit, What: what}
	}
	return data, nil
}

// ReadFile reads the file at path with a limit; a regular file larger than
// the limit fails before anything is read.
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, &TooLarge{Name: path, Limit: limit, What: what}
	}
	return ReadAll(path, f, limit, what)
}

// Lines wraps r so that no line is longer than limit bytes: a reader of
// lines (bufio.Reader.ReadString) then gets *TooLarge instead of growing its
// buffer without end. name and what go into the error.
func Lines(r io.Reader, name string, limit int, what string) io.Reader {
	return &lineLimit{r: r, name: name, limit: limit, what: what}
}

type lineLimit struct {
	r     io.Reader
	n     int // bytes of the current line so far
	limit int
	name  string
	what  string
	err   error
}

func (l *lineLimit) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			l.n = 0
			continue
		}
		l.n++
		if l.n > l.limit {
			l.err = &TooLarge{Name: l.name, Limit: int64(l.limit), What: l.what}
			return i, l.err
		}
	}
	return n, err
}
