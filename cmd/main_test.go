package cmd

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain isolates the tests from the developer's environment: commands
// read the environment only through Factory.IO.Getenv (the tests give them
// testEnv), and in case anything reaches the process environment, every
// K8SEXPLAIN_* variable, NO_COLOR and the XDG and HOME locations are
// replaced here (`export K8SEXPLAIN_LANG=ru` must not fail a test).
func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "K8SEXPLAIN_") || k == "NO_COLOR" || k == "PAGER" {
			os.Unsetenv(k)
		}
	}
	home, err := os.MkdirTemp("", "k8sexplain-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		os.Setenv(k, home)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// testEnv is the environment the commands under test see.
var testEnv = map[string]string{}

func testGetenv(k string) string { return testEnv[k] }

// setEnv sets a variable of testEnv for the rest of the test.
func setEnv(t testing.TB, k, v string) {
	t.Helper()
	old, had := testEnv[k]
	testEnv[k] = v
	t.Cleanup(func() {
		if had {
			testEnv[k] = old
		} else {
			delete(testEnv, k)
		}
	})
}
