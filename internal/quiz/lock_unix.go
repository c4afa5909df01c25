//go:build unix

package quiz

import (
	"os"
	"syscall"
)

// noFollow opens a store file without following a symbolic link and
// without waiting on a FIFO; openRegular then refuses anything but a
// regular file.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// lockFile takes an exclusive advisory lock (flock(2)) on path, waiting for
// another session to release it. The lock dies with the process, so a
// crashed session never leaves the store locked.
func lockFile(path string) (unlock func(), err error) {
	f, err := openRegular(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
