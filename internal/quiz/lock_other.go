//go:build !unix

package quiz

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// noFollow: no such open flag here; openRegular still checks the file.
const noFollow = 0

// lockFile creates path exclusively, retrying for up to ten seconds; a lock
// file older than a minute is taken to be left by a crashed session.
func lockFile(path string) (unlock func(), err error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > time.Minute {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s is held by another session", path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
