package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
)

// Load reads every path in order and returns the objects in file order.
// A path is a file, a directory (its *.yaml, *.yml and *.json files,
// sorted by name, not recursive) or "-" for stdin. Every error is an
// exitcode.Input error whose first line names the file (and line).
func Load(paths []string, stdin io.Reader) ([]Object, error) {
	var out []Object
	var total int64
	stdinRead := false
	// count adds one source to the totals of the whole load.
	count := func(name string, size int64) error {
		total += size
		if total > MaxTotalBytes {
			return exitcode.Inputf("%s: the manifests read so far add up to %s, more than the %s limit for one run (every file and directory given)",
				displayName(name), sizeText(total), sizeText(MaxTotalBytes))
		}
		return nil
	}
	countObjects := func(name string) error {
		if len(out) > MaxTotalObjects {
			return exitcode.Inputf("%s: the manifests read so far hold %d objects, more than the %d limit for one run (every file and directory given)",
				displayName(name), len(out), MaxTotalObjects)
		}
		return nil
	}
	for _, p := range paths {
		if p == "-" {
			if stdinRead {
				return nil, exitcode.Inputf("-: standard input given more than once")
			}
			stdinRead = true
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			data, err := readCapped("-", stdin, -1)
			if err != nil {
				return nil, err
			}
			if err := count("-", int64(len(data))); err != nil {
				return nil, err
			}
			objs, err := Parse("-", data)
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
			if err := countObjects("-"); err != nil {
				return nil, err
			}
			continue
		}
		files, err := expand(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			objs, size, err := loadFile(f, MaxTotalBytes-total)
			if err != nil {
				return nil, err
			}
			if err := count(f, size); err != nil {
				return nil, err
			}
			out = append(out, objs...)
			if err := countObjects(f); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// manifestExt reports whether a directory entry is read as a manifest.
func manifestExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// expand turns a path into the files it names.
func expand(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, exitcode.AsInput(openError(p, err))
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p) // sorted by file name
	if err != nil {
		return nil, exitcode.AsInput(err)
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() || !manifestExt(e.Name()) {
			continue
		}
		files = append(files, filepath.Join(p, e.Name()))
	}
	if len(files) == 0 {
		return nil, exitcode.Inputf("%s: directory has no *.yaml, *.yml or *.json files", p)
	}
	return files, nil
}

// openError keeps the shape "open app.yaml: no such file or directory".
func openError(p string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &os.PathError{Op: "open", Path: p, Err: pe.Err}
	}
	return err
}

// loadFile reads and parses one file and returns its size. left is what
// remains of MaxTotalBytes: a regular file larger than that is not read.
func loadFile(p string, left int64) ([]Object, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, exitcode.AsInput(openError(p, err))
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
		if size > left && size <= MaxFileBytes {
			return nil, 0, exitcode.Inputf("%s: the manifests read so far add up to more than the %s limit for one run (every file and directory given)",
				p, sizeText(MaxTotalBytes))
		}
	}
	data, err := readCapped(p, f, size)
	if err != nil {
		return nil, 0, err
	}
	objs, err := Parse(p, data)
	return objs, int64(len(data)), err
}

// readCapped reads at most MaxFileBytes; size is the file size when known.
func readCapped(name string, r io.Reader, size int64) ([]byte, error) {
	if size > MaxFileBytes {
		return nil, tooLarge(name, size)
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, MaxFileBytes+1))
	if err != nil && exitcode.IsEnvironment(err) {
		// stdin opened for writing only, an I/O error: the machine's fault
		return nil, &exitcode.Error{Code: exitcode.Environment, Err: fmt.Errorf("%s: %w", displayName(name), err)}
	}
	if err != nil {
		return nil, exitcode.Inputf("%s: %v", displayName(name), err)
	}
	if n > MaxFileBytes {
		return nil, tooLarge(name, size)
	}
	return buf.Bytes(), nil
}

func tooLarge(name string, size int64) error {
	if size < 0 {
		return exitcode.Inputf("%s: input is larger than the %s limit", displayName(name), sizeText(MaxFileBytes))
	}
	return exitcode.Inputf("%s: file is %s, larger than the %s limit", displayName(name), sizeText(size), sizeText(MaxFileBytes))
}

// displayName is how errors name a source; stdin has no file name.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// Parse decodes one named source (a file's content). name is used in
// errors and in Pos; "-" means stdin.
func Parse(name string, data []byte) (objs []Object, err error) {
	defer func() {
		// The YAML and JSON libraries are not expected to panic, but input
		// is hostile by assumption: a panic becomes an input error.
		if r := recover(); r != nil {
			objs = nil
			err = exitcode.Inputf("%s: cannot parse: %v", displayName(name), r)
		}
	}()
	if len(data) > MaxFileBytes {
		return nil, tooLarge(name, int64(len(data)))
	}
	p := &parser{file: name, helm: bytes.Contains(data, []byte("{{"))}
	if err := p.parse(data); err != nil {
		var pe *posErr
		if errors.As(err, &pe) {
			if pe.line > 0 {
				return nil, exitcode.Inputf("%s:%d: %s", displayName(name), pe.line, pe.msg)
			}
			return nil, exitcode.Inputf("%s: %s", displayName(name), pe.msg)
		}
		return nil, exitcode.AsInput(fmt.Errorf("%s: %w", displayName(name), err))
	}
	return p.objs, nil
}
