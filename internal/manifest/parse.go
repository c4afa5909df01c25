package manifest

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// parser turns one source into objects: YAML documents, then Lists
// flattened, then each object decoded.
type parser struct {
	file string
	helm bool // the source contains "{{": maybe an unrendered template
	b    budget
	objs []Object
}

func (p *parser) parse(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for docs := 0; ; docs++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return p.yamlError(err)
		}
		if docs == MaxDocuments {
			return errAt(doc.Line, "more than %d YAML documents in one file", MaxDocuments)
		}
		if err := p.collect(&doc, 0); err != nil {
			return err
		}
	}
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// yamlError reports a YAML syntax error at its line. yaml.v3 counts lines
// of parser errors (as opposed to scanner errors) from 0: it reports the
// 0-based line of the construct it was parsing, so those get one added.
func (p *parser) yamlError(err error) error {
	msg := err.Error()
	line := 0
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserError(msg) {
			line++
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if parserError(msg) {
			line = 1
		}
	}
	return errAt(line, "not valid YAML: %s%s", msg, p.hint())
}

func parserError(msg string) bool {
	if !strings.HasPrefix(msg, "did not find expected ") {
		return false
	}
	for _, scanner := range []string{"alphabetic", "whitespace", "comment", "tag", "URI"} {
		if strings.HasPrefix(msg, "did not find expected "+scanner) {
			return false
		}
	}
	return true
}

func (p *parser) hint() string {
	if p.helm {
		return " (a Helm template? render it with helm template first)"
	}
	return ""
}

// collect adds the objects in node n: one object, or the items of a List
// (nested Lists too). Empty and null documents add nothing.
func (p *parser) collect(n *yaml.Node, depth int) error {
	if depth > MaxDepth {
		return errAt(n.Line, "nesting deeper than %d levels", MaxDepth)
	}
	p.b.nodes++ // Lists of aliased Lists are a bomb too
	if p.b.nodes > maxNodes {
		return errAt(n.Line, "document expands to more than %d YAML nodes (an alias bomb?)", maxNodes)
	}
	for n.Kind == yaml.DocumentNode || n.Kind == yaml.AliasNode {
		if n.Kind == yaml.DocumentNode {
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		} else {
			if n.Alias == nil {
				return errAt(n.Line, "unknown anchor %q referenced", n.Value)
			}
			n = n.Alias
		}
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		what := nodeKindName(n)
		if n.Kind == yaml.ScalarNode {
			what += " " + strconv.Quote(shorten(n.Value, 40))
		}
		return errAt(n.Line, "expected an object with apiVersion and kind, found a %s%s", what, p.hint())
	}
	apiVersion, kind := scalarKey(n, "apiVersion"), scalarKey(n, "kind")
	if items, ok := listItems(n, kind); ok {
		if items == nil {
			return nil
		}
		if items.Kind != yaml.SequenceNode {
			return errAt(items.Line, "items of %s must be a list, found a %s", kind, nodeKindName(items))
		}
		for _, it := range items.Content {
			if err := p.collect(it, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if len(p.objs) >= MaxObjects {
		return errAt(n.Line, "more than %d objects in one file", MaxObjects)
	}
	doc, err := toJSON(n, &p.b)
	if err != nil {
		var pe *posErr
		if p.helm && errors.As(err, &pe) && strings.HasPrefix(pe.msg, "a mapping key must be") {
			pe.msg += p.hint()
		}
		return err
	}
	p.b.bytes += doc.buf.Len()
	id := ident{apiVersion: apiVersion, kind: kind, file: kubectlSource(p.file), line: n.Line}
	if md := valueOf(n, "metadata"); md != nil && md.Kind == yaml.MappingNode {
		id.name, id.namespace = scalarKey(md, "name"), scalarKey(md, "namespace")
	}
	id.fromJSON(doc.buf.Bytes()) // sees keys merged in with "<<" too
	obj, err := decode(id, doc)
	if err != nil {
		return err
	}
	obj.Pos = Pos{File: p.file, Line: n.Line}
	p.objs = append(p.objs, obj)
	return nil
}

// listItems returns the items node of a List ("kind: List", or any
// "...List" kind that has items, as kubectl flattens them). ok is false
// when n is not a list; items is nil for a List without items.
func listItems(n *yaml.Node, kind string) (items *yaml.Node, ok bool) {
	if kind != "List" && !strings.HasSuffix(kind, "List") {
		return nil, false
	}
	items = valueOf(n, "items")
	if kind != "List" && items == nil {
		return nil, false
	}
	if items != nil && items.Kind == yaml.ScalarNode && items.ShortTag() == "!!null" {
		return nil, true
	}
	return items, true
}

// valueOf returns the value of key in mapping n, following aliases.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Kind == yaml.ScalarNode && n.Content[i].Value == key {
			v := n.Content[i+1]
			for v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

func scalarKey(n *yaml.Node, key string) string {
	v := valueOf(n, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
		return ""
	}
	return v.Value
}

// kubectlSource is how kubectl names a source in its messages.
func kubectlSource(file string) string {
	if file == "-" {
		return "STDIN"
	}
	return file
}

// shorten keeps at most n bytes of s and marks the cut with "...". The cut
// falls on a rune boundary: a Cyrillic value is shortened by whole letters,
// never into half a UTF-8 sequence that would print as \xd0.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
