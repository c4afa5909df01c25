package yamldoc

import (
	"strings"
	"testing"
)

func TestOne(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"lang: ru\n", ""},
		{"---\nlang: ru\n", ""},
		{"lang: ru\n---\nreset: true\n", "line 3: a second YAML document"},
		{"- id: a\n  answer: b\n---\n- id: c\n", "line 4:"},
		{"", ""},
	} {
		err := One([]byte(tc.in))
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
