package manpage_test

// go test ./... -update hands -update to every test binary; the golden
// package defines it (see its package doc).
import _ "github.com/k8sexplain/k8sexplain/internal/golden"
