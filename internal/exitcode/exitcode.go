// Package exitcode carries the process exit code with an error, so that a
// command deep inside the tool can say "the input is wrong" (exit 1) without
// knowing how the process ends.
//
// The codes are the ones README.md documents and scripts rely on:
// 0 success, 1 bad input, 2 usage, 3 internal error, 4 environment error,
// 124 timed out,
// 130 interrupted.
package exitcode

import (
	"errors"
	"fmt"
	"syscall"
)

// The exit codes of k8sexplain.
const (
	OK       = 0
	Input    = 1
	Usage    = 2
	Internal = 3
	// Environment is an error of the machine, not of the input or of
	// k8sexplain: a full disk, a read-only or unwritable state directory,
	// stdout that refuses writes (/dev/full), a closed stdin.
	Environment = 4
	// Timeout: a run with a deadline (grpc-skew --live) did not finish in
	// time; the input was fine. 124 as timeout(1) exits.
	Timeout     = 124
	Interrupted = 130
)

// Error is an error with the exit code it should end the process with.
// Format and Args are the message's format and arguments when one of the
// ...f constructors made it, so that a caller can say the same message in
// another language (cmd's Russian catalogue, keyed by Format).
type Error struct {
	Code   int
	Err    error
	Format string
	Args   []any
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Inputf returns a bad-input error (exit 1) formatted like fmt.Errorf.
func Inputf(format string, args ...any) error {
	return &Error{Code: Input, Err: fmt.Errorf(format, args...), Format: format, Args: args}
}

// AsInput marks err as bad input (exit 1); nil stays nil.
func AsInput(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: Input, Err: err}
}

// Timeoutf returns a timed-out error (exit 124).
func Timeoutf(format string, args ...any) error {
	return &Error{Code: Timeout, Err: fmt.Errorf(format, args...), Format: format, Args: args}
}

// Usagef returns a usage error (exit 2).
func Usagef(format string, args ...any) error {
	return &Error{Code: Usage, Err: fmt.Errorf(format, args...), Format: format, Args: args}
}

// Code returns the exit code for err: 0 for nil, the carried code for an
// *Error, Environment for an operating-system error the machine caused
// (IsEnvironment), and Internal for anything else.
func Code(err error) int {
	if err == nil {
		return OK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if IsEnvironment(err) {
		return Environment
	}
	return Internal
}

// environmentErrnos are the errors a working program gets from a broken
// environment: no space or quota left, a read-only file system, no
// permission, an I/O error, a closed or wrong descriptor (stdin closed with
// <&-), a reader that went away.
var environmentErrnos = []syscall.Errno{
	syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EACCES, syscall.EPERM,
	syscall.EIO, syscall.EBADF, syscall.EISDIR, syscall.ENOTDIR, syscall.EPIPE, syscall.EMFILE, syscall.ENFILE, syscall.ENOMEM,
}

// IsEnvironment reports whether err is caused by the machine rather than by
// the input or by k8sexplain.
func IsEnvironment(err error) bool {
	for _, n := range environmentErrnos {
		if errors.Is(err, n) {
			return true
		}
	}
	return false
}

// Environmentf returns an environment error (exit 4).
func Environmentf(format string, args ...any) error {
	return &Error{Code: Environment, Err: fmt.Errorf(format, args...), Format: format, Args: args}
}
