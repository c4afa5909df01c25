package exitcode

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
)

func TestCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, OK},
		{Inputf("bad"), Input},
		{Usagef("usage"), Usage},
		{errors.New("a bug"), Internal},
		{&os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}, Environment},
		{fmt.Errorf("load progress: %w", &os.PathError{Op: "open", Path: "/s/quiz.lock", Err: syscall.EROFS}), Environment},
		{fmt.Errorf("read: %w", syscall.EBADF), Environment},
		{AsInput(&os.PathError{Op: "open", Path: "app.yaml", Err: syscall.EACCES}), Input}, // a named input stays bad input
		{Environmentf("disk"), Environment},
	} {
		if got := Code(tc.err); got != tc.want {
			t.Errorf("Code(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
