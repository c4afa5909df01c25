package manifest

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
)

// FuzzParse feeds arbitrary bytes to the loader, then defaulting and
// validation. Whatever the input, the result is objects or a one-line
// exit-code-1 error; never a panic. The seeds in testdata/fuzz/FuzzParse
// (a Deployment, a List, an alias bomb, a Helm template, deep nesting)
// run in every `go test`; `go test -fuzz FuzzParse` explores further.
func FuzzParse(f *testing.F) {
	f.Add([]byte(deployYAML))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := Parse("fuzz.yaml", data)
		if err != nil {
			if exitcode.Code(err) != exitcode.Input {
				t.Fatalf("exit code %d for %v", exitcode.Code(err), err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		for _, o := range objs {
			Default(o.Obj)
			_ = Validate(o.Obj)
		}
	})
}
