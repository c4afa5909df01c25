// Package yamldoc checks that a YAML file is one document: a config file or
// an answers file with a second document after "---" would otherwise have
// it ignored without a word (issue 29).
package yamldoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// One returns an error naming the line of a second document in data, or
// nil. Errors of the documents themselves are left to the caller's parser.
func One(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first yaml.Node
	if err := dec.Decode(&first); err != nil {
		return nil
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return nil
	}
	line := second.Line
	if len(second.Content) > 0 {
		line = second.Content[0].Line
	}
	return fmt.Errorf("line %d: a second YAML document (after ---); this file is one document", line)
}
