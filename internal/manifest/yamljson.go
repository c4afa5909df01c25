package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"gopkg.in/yaml.v3"
)

// budget is shared by every object of one file: the nodes visited (alias
// expansions count every time) and the JSON bytes written.
type budget struct {
	nodes      int
	aliasNodes int // nodes visited again through an alias
	bytes      int
}

// fieldAt is one JSON value the encoder wrote: where it starts in the JSON
// and where it came from in the YAML, so a decoding error can be traced
// back to file:line and a field path.
type fieldAt struct {
	off  int
	path string
	line int
}

// jsonDoc is one object converted from a yaml.v3 node tree to JSON, with
// the source line of every field path, in the path syntax sigs.k8s.io/json
// uses in its strict errors: "spec.template.spec.containers[0].image".
type jsonDoc struct {
	buf    bytes.Buffer
	lines  map[string]int
	fields []fieldAt
}

// lineOf returns the line of path, or of its nearest recorded parent.
func (d *jsonDoc) lineOf(path string, fallback int) int {
	for p := path; p != ""; p = parentPath(p) {
		if l, ok := d.lines[p]; ok {
			return l
		}
	}
	return fallback
}

// fieldBefore returns the last value that starts before JSON offset off.
func (d *jsonDoc) fieldBefore(off int) (fieldAt, bool) {
	var best fieldAt
	found := false
	for _, f := range d.fields {
		if f.off < off && (!found || f.off >= best.off) {
			best, found = f, true
		}
	}
	return best, found
}

func parentPath(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' || p[i] == '[' {
			return p[:i]
		}
	}
	return ""
}

// posErr is a loader error at one line of one file.
type posErr struct {
	line int
	msg  string
}

func (e *posErr) Error() string { return e.msg }

func errAt(line int, format string, args ...any) error {
	return &posErr{line: line, msg: fmt.Sprintf(format, args...)}
}

// toJSON converts the node n (an object) to JSON within the file budget b.
func toJSON(n *yaml.Node, b *budget) (*jsonDoc, error) {
	d := &jsonDoc{lines: map[string]int{}}
	e := encoder{doc: d, b: b}
	if err := e.value(n, "", 0); err != nil {
		return nil, err
	}
	return d, nil
}

type encoder struct {
	doc *jsonDoc
	b   *budget
	// aliased > 0 while expanding an alias: positions are not recorded
	// there, so memory stays proportional to the source, not the expansion.
	aliased int
	// pathBytes counts the bytes of field paths built for this object.
	pathBytes int
}

// noPath stands for a value whose path is not tracked.
const noPath = "\x00"

func (e *encoder) record(path string, line int) {
	if e.aliased == 0 && path != noPath {
		e.doc.lines[path] = line
	}
}

// childPath builds the path of a child value. Paths are only built where
// they are recorded, and only up to maxPathBytes per object: long keys
// nested deep with many siblings would otherwise cost memory quadratic in
// the file size. Past the bound, errors fall back to the object's line.
func (e *encoder) childPath(path, sep, name, end string) string {
	if path == noPath || e.aliased > 0 || e.pathBytes > maxPathBytes {
		return noPath
	}
	if path == "" {
		e.pathBytes += len(name)
		return name
	}
	p := path + sep + name + end
	e.pathBytes += len(p)
	return p
}

func (e *encoder) value(n *yaml.Node, path string, depth int) error {
	if depth > MaxDepth {
		return errAt(n.Line, "nesting deeper than %d levels", MaxDepth)
	}
	e.b.nodes++
	if e.b.nodes > maxNodes {
		return errAt(n.Line, "document expands to more than %d YAML nodes (an alias bomb?)", maxNodes)
	}
	if e.aliased > 0 {
		e.b.aliasNodes++
		if e.b.aliasNodes > maxAliasNodes {
			return errAt(n.Line, "aliases expand to more than %d YAML nodes (an alias bomb?)", maxAliasNodes)
		}
	}
	if e.b.bytes+e.doc.buf.Len() > maxJSONBytes {
		return errAt(n.Line, "document expands to more than %s (an alias bomb?)", sizeText(maxJSONBytes))
	}
	if e.aliased == 0 && path != noPath {
		e.doc.fields = append(e.doc.fields, fieldAt{off: e.doc.buf.Len(), path: path, line: n.Line})
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return errAt(n.Line, "unknown anchor %q referenced", n.Value)
		}
		e.aliased++
		err := e.value(n.Alias, path, depth+1)
		e.aliased--
		return err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			e.doc.buf.WriteString("null")
			return nil
		}
		return e.value(n.Content[0], path, depth)
	case yaml.MappingNode:
		return e.mapping(n, path, depth)
	case yaml.SequenceNode:
		e.doc.buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				e.doc.buf.WriteByte(',')
			}
			p := e.childPath(path, "[", strconv.Itoa(i), "]")
			e.record(p, item.Line)
			if err := e.value(item, p, depth+1); err != nil {
				return err
			}
		}
		e.doc.buf.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		return e.scalar(n)
	}
	return errAt(n.Line, "unexpected YAML node")
}

// pair is one key of a mapping after merge keys ("<<") are resolved.
type pair struct {
	key    string
	line   int
	value  *yaml.Node
	merged bool // came in through "<<"
}

func (e *encoder) mapping(n *yaml.Node, path string, depth int) error {
	pairs, err := e.pairs(n, depth, map[string]bool{})
	if err != nil {
		return err
	}
	e.doc.buf.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			e.doc.buf.WriteByte(',')
		}
		child := e.childPath(path, ".", p.key, "")
		e.record(child, p.line)
		k, _ := json.Marshal(p.key) // a string always marshals
		e.doc.buf.Write(k)
		e.doc.buf.WriteByte(':')
		if p.merged {
			e.aliased++ // merged values are expansions too: same budget
		}
		err := e.value(p.value, child, depth+1)
		if p.merged {
			e.aliased--
		}
		if err != nil {
			return err
		}
	}
	e.doc.buf.WriteByte('}')
	return nil
}

// pairs lists the keys of mapping n: its own keys first, then keys merged
// in with "<<" that it does not set itself (YAML merge key semantics, which
// kubectl's YAML library supports). seen holds keys already taken.
func (e *encoder) pairs(n *yaml.Node, depth int, seen map[string]bool) ([]pair, error) {
	var own []pair
	var merges []*yaml.Node
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, errAt(k.Line, "a mapping key must be a string, found a %s", nodeKindName(k))
		}
		if k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if l, dup := first[k.Value]; dup {
			return nil, errAt(k.Line, "mapping key %q already defined at line %d", k.Value, l)
		}
		first[k.Value] = k.Line
		if seen[k.Value] {
			continue
		}
		own = append(own, pair{key: k.Value, line: n.Content[i].Line, value: v})
	}
	for _, p := range own {
		seen[p.key] = true
	}
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, s := range srcs {
			e.b.nodes++
			if depth > MaxDepth || e.b.nodes > maxNodes {
				return nil, errAt(s.Line, "merge keys nest too deep or expand too far (an alias bomb?)")
			}
			for s.Kind == yaml.AliasNode && s.Alias != nil {
				s = s.Alias
			}
			if s.Kind != yaml.MappingNode {
				return nil, errAt(s.Line, "map merge requires a mapping or a list of mappings")
			}
			more, err := e.pairs(s, depth+1, seen)
			if err != nil {
				return nil, err
			}
			for i := range more {
				more[i].merged = true
			}
			own = append(own, more...)
		}
	}
	return own, nil
}

func (e *encoder) scalar(n *yaml.Node) error {
	buf := &e.doc.buf
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var v bool
		if err := n.Decode(&v); err != nil {
			return errAt(n.Line, "%v", err)
		}
		buf.WriteString(strconv.FormatBool(v))
	case "!!int":
		var v int64
		if err := n.Decode(&v); err == nil {
			buf.WriteString(strconv.FormatInt(v, 10))
			return nil
		}
		var u uint64
		if err := n.Decode(&u); err == nil {
			buf.WriteString(strconv.FormatUint(u, 10))
			return nil
		}
		return e.float(n)
	case "!!float":
		return e.float(n)
	default: // !!str, !!binary, !!timestamp and custom tags stay text
		s, _ := json.Marshal(n.Value)
		buf.Write(s)
	}
	return nil
}

func (e *encoder) float(n *yaml.Node) error {
	var v float64
	if err := n.Decode(&v); err != nil {
		return errAt(n.Line, "%v", err)
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return errAt(n.Line, "%s cannot be represented in JSON", n.Value)
	}
	e.doc.buf.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	return nil
}

func nodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "null"
		}
		return "string"
	}
	return "document"
}
