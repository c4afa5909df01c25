package main

import (
	"reflect"
	"testing"
)

func TestMergeWritesKeepsWhatHeldInEveryRun(t *testing.T) {
	always, some := mergeWrites([][]string{{"a", "b", "b", "c"}, {"b", "a", "d"}})
	want := []WriteCount{{Class: "a", Min: 1, Max: 1}, {Class: "b", Min: 1, Max: 2}}
	if !reflect.DeepEqual(always, want) || !reflect.DeepEqual(some, []string{"c", "d"}) {
		t.Fatalf("always %v, sometimes %v", always, some)
	}
}

func TestMergeOrderIsTransitivelyReduced(t *testing.T) {
	classes := []WriteCount{{Class: "a"}, {Class: "b"}, {Class: "c"}}
	got := mergeOrder([][]string{{"a", "b", "c"}, {"a", "b", "b", "c"}}, classes)
	if want := [][2]string{{"a", "b"}, {"b", "c"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	// b and c swap between runs: only a before both holds
	got = mergeOrder([][]string{{"a", "b", "c"}, {"a", "c", "b"}}, classes)
	if want := [][2]string{{"a", "b"}, {"a", "c"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestMergeJSONMarksWhatVaries(t *testing.T) {
	a := map[string]any{"name": "web", "node": "node-a", "list": []any{1.0, 2.0}}
	b := map[string]any{"name": "web", "node": "node-b", "list": []any{1.0}}
	got := mergeJSON(a, b)
	want := map[string]any{"name": "web", "node": varies, "list": varies}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merged %v", got)
	}
}

func TestNormalizerReplacesRoles(t *testing.T) {
	n := &normalizer{ns: "oracle-x", names: map[string]string{"web-6c64cbcbb9-k72sk": "web-6c64cbcbb9-xxxxx"}}
	n.ordered = []string{"web-6c64cbcbb9-k72sk"}
	for in, want := range map[string]string{
		"10.244.1.7":                        "<podIP>",
		"10.96.0.10":                        "<clusterIP>",
		"2026-12-01T15:00:00Z":              "<time>",
		"Created pod: web-6c64cbcbb9-k72sk": "Created pod: web-6c64cbcbb9-xxxxx",
		"oracle-x/web":                      "default/web",
	} {
		if got := n.str(in); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

func TestIntoNamespaceDropsTheNamespaceAndMovesItsObjects(t *testing.T) {
	in := "# c\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\napiVersion: v1\nkind: LimitRange\nmetadata:\n  name: defaults\n  namespace: team-a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n"
	got := string(intoNamespace([]byte(in), "oracle-x"))
	want := "\napiVersion: v1\nkind: LimitRange\nmetadata:\n  name: defaults\n  namespace: oracle-x\n\n---\n\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if plain := "kind: Service\nmetadata:\n  name: s\n"; string(intoNamespace([]byte(plain), "x")) != plain {
		t.Fatalf("a manifest without a Namespace changed: %q", intoNamespace([]byte(plain), "x"))
	}
}
