package schedconfig

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// maxNodes bounds the YAML nodes one file may make the decoder visit,
// aliases counted each time they are followed.
const maxNodes = 100000

// ignored is a field the decoder accepts with any content and skips: parts
// of KubeSchedulerConfiguration that do not change placement
// (leaderElection, clientConnection).
type ignored struct{}

var (
	ignoredType = reflect.TypeFor[ignored]()
	nodeType    = reflect.TypeFor[*yaml.Node]()
)

// decoder fills Go values from a yaml.v3 node tree strictly, by the json
// tags of the fields, as sigs.k8s.io/json's strict mode does for
// kube-scheduler's config: unknown and duplicate fields and values of the
// wrong type are errors, each at its line. It records the line of every
// field path for the validation errors found later.
type decoder struct {
	nodes int
	lines map[string]int
}

// posError is an error at a line of the file.
type posError struct {
	line int
	msg  string
}

func (e *posError) Error() string { return e.msg }

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return &posError{line: n.Line, msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if d.nodes++; d.nodes > maxNodes {
		return d.errorf(n, "more than %d YAML nodes (aliases included)", maxNodes)
	}
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		return d.decode(n.Content[0], v, path)
	}
	if _, ok := d.lines[path]; !ok {
		d.lines[path] = n.Line
	}
	t := v.Type()
	switch {
	case t == ignoredType:
		return nil
	case t == nodeType:
		v.Set(reflect.ValueOf(n))
		return nil
	}
	null := n.Kind == yaml.ScalarNode && n.Tag == "!!null"
	if null {
		v.SetZero()
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := d.decode(n, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Struct:
		return d.object(n, v, path)
	case reflect.Slice:
		return d.array(n, v, path)
	}
	return d.literal(n, v, path)
}

// object fills the struct v from a mapping, as encoding/json's object
// does in strict mode: each key a known json field, once.
func (d *decoder) object(n *yaml.Node, v reflect.Value, path string) error {
	if n.Kind != yaml.MappingNode {
		return d.wrongType(n, path, "an object")
	}
	fields := fieldsOf(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		for k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return d.errorf(k, "%s: a field name must be a string", where(path))
		}
		child := k.Value
		if path != "" {
			child = path + "." + k.Value
		}
		if seen[k.Value] {
			return d.errorf(k, "duplicate field %q", child)
		}
		seen[k.Value] = true
		idx, ok := fields[k.Value]
		if !ok {
			return d.errorf(k, "unknown field %q", child)
		}
		d.lines[child] = k.Line
		if err := d.decode(val, v.Field(idx), child); err != nil {
			return err
		}
	}
	return nil
}

// array fills the slice v from a sequence (encoding/json's array).
func (d *decoder) array(n *yaml.Node, v reflect.Value, path string) error {
	if n.Kind != yaml.SequenceNode {
		return d.wrongType(n, path, "a list")
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		if err := d.decode(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	v.Set(s)
	return nil
}

// literal stores a scalar into a string, bool or integer v
// (encoding/json's literalStore), the YAML tag deciding its type.
func (d *decoder) literal(n *yaml.Node, v reflect.Value, path string) error {
	t := v.Type()
	switch t.Kind() {
	case reflect.String:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
			return d.wrongType(n, path, "a string")
		}
		v.SetString(n.Value)
		return nil
	case reflect.Bool:
		var b bool
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
			return d.wrongType(n, path, "true or false")
		}
		v.SetBool(b)
		return nil
	case reflect.Int32, reflect.Int64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			return d.wrongType(n, path, "an integer")
		}
		var i int64
		if err := n.Decode(&i); err != nil || v.OverflowInt(i) {
			return d.errorf(n, "invalid value for %q: %s does not fit in %s", path, n.Value, t.Kind())
		}
		v.SetInt(i)
		return nil
	}
	return d.errorf(n, "%s: cannot decode into %s", where(path), t) // a mirror type the decoder does not handle
}

func (d *decoder) wrongType(n *yaml.Node, path, want string) error {
	got := "a " + strings.TrimPrefix(n.Tag, "!!")
	switch n.Kind {
	case yaml.MappingNode:
		got = "an object"
	case yaml.SequenceNode:
		got = "a list"
	case yaml.ScalarNode:
		got += " " + quoteShort(n.Value)
	}
	return d.errorf(n, "wrong type for %q: want %s, got %s", path, want, got)
}

func where(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

func quoteShort(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

var fieldCache sync.Map // reflect.Type → map[string]int

// fieldsOf maps the json names of t's fields to their indexes.
func fieldsOf(t reflect.Type) map[string]int {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = i
		}
	}
	fieldCache.Store(t, m)
	return m
}
