package manifest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
)

const deployYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        imagePullPolcy: Always
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"unknown field", deployYAML, `app.yaml:16: unknown field "spec.template.spec.containers[0].imagePullPolcy" in Deployment "web"`},
		{"wrong type", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: \"three\"\n",
			`app.yaml:6: wrong type for "spec.replicas" in Deployment "web": cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{"wrong type through an alias", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {n: &n three}\nspec:\n  replicas: *n\n",
			`app.yaml:7: wrong type for "spec.replicas" in Deployment "web": cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{"duplicate key", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  name: b\n",
			`app.yaml:5: mapping key "name" already defined at line 4`},
		{"removed version", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: x\n",
			`app.yaml:5: resource mapping not found for name: "x" namespace: "" from "app.yaml": no matches for kind "PodDisruptionBudget" in version "policy/v1beta1" (this version is not served; use policy/v1)`},
		{"extensions deployment", "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: d, namespace: prod}\n",
			`app.yaml:1: resource mapping not found for name: "d" namespace: "prod" from "app.yaml": no matches for kind "Deployment" in version "extensions/v1beta1" (this version is not served; use apps/v1)`},
		{"misspelled kind", "apiVersion: v1\nkind: Servce\nmetadata: {name: s}\n",
			`app.yaml:1: resource mapping not found for name: "s" namespace: "" from "app.yaml": no matches for kind "Servce" in version "v1"`},
		{"missing kind", "apiVersion: v1\nmetadata: {name: s}\n",
			`app.yaml:1: Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"s"}}'`},
		{"missing apiVersion", "kind: Pod\nmetadata: {name: s}\n",
			`app.yaml:1: Object 'apiVersion' is missing in '{"kind":"Pod","metadata":{"name":"s"}}'`},
		{"helm template", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n{{- if .Values.x }}\ndata: {}\n",
			`app.yaml:5: not valid YAML: could not find expected ':' (a Helm template? render it with helm template first)`},
		{"helm value", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n",
			`app.yaml:4: a mapping key must be a string, found a mapping (a Helm template? render it with helm template first)`},
		{"not yaml", "a: 1\nb: [1,\nc: 2\n", `app.yaml:2: not valid YAML: did not find expected ',' or ']'`},
		{"scalar document", "just text\n", `app.yaml:1: expected an object with apiVersion and kind, found a string "just text"`},
		{"list items not a list", "apiVersion: v1\nkind: List\nitems: 3\n", `app.yaml:3: items of List must be a list, found a string`},
		{"bad item in list", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec: {nodeNme: x}\n",
			`app.yaml:7: unknown field "spec.nodeNme" in Pod "p"`},
		{"custom resource metadata typo", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labls: {a: b}\n",
			`app.yaml:5: unknown field "metadata.labls" in Widget "w"`},
		{"kustomization", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n",
			`app.yaml:1: resource mapping not found for name: "" namespace: "" from "app.yaml": no matches for kind "Kustomization" in version "kustomize.config.k8s.io/v1beta1": a kustomization is not an object to apply; build it with kubectl kustomize (or kubectl apply -k DIR)`},
		{"deep nesting", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\n",
			`app.yaml:4: nesting deeper than 100 levels`},
		{"bad quantity", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: c\n    resources:\n      requests: {cpu: 100m}\n      limits:\n        memory: 1 GB\n",
			`app.yaml:11: invalid value for "spec.containers[0].resources.limits.memory" in Pod "p": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{"bad intOrString", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - port: 80\n    targetPort: [80]\n",
			`app.yaml:7: wrong type for "spec.ports[0].targetPort" in Service "s": cannot unmarshal array into Go struct field ServicePort.spec.ports.targetPort of type int32`},
		{"infinity", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {priority: .inf}\n", `app.yaml:4: .inf cannot be represented in JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("app.yaml", []byte(tt.in))
			if err == nil {
				t.Fatalf("Parse: no error, want %q", tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse error\n got: %s\nwant: %s", got, tt.want)
			}
			if exitcode.Code(err) != exitcode.Input {
				t.Errorf("exit code %d, want %d", exitcode.Code(err), exitcode.Input)
			}
		})
	}
}

func TestParseKinds(t *testing.T) {
	in := `# leading comment only document
---
---
null
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: svc, namespace: shop}
  spec: {ports: [{port: 80}]}
- apiVersion: v1
  kind: List
  items:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {size: 3, anything: [1, 2]}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
---
apiVersion: v1
kind: ConfigMapList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
  data: {k: v}
`
	objs, err := Parse("all.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind, name string
		line       int
	}{{"Service", "svc", 9}, {"Deployment", "web", 16}, {"Widget", "w", 20}, {"CustomResourceDefinition", "widgets.example.com", 25}, {"ConfigMap", "cm", 32}}
	if len(objs) != len(want) {
		t.Fatalf("got %d objects, want %d: %+v", len(objs), len(want), objs)
	}
	for i, w := range want {
		o := objs[i]
		if o.Kind != w.kind || o.Name != w.name || o.Pos != (Pos{File: "all.yaml", Line: w.line}) {
			t.Errorf("object %d = %s %q at %+v, want %s %q at line %d", i, o.Kind, o.Name, o.Pos, w.kind, w.name, w.line)
		}
	}
	if s, ok := objs[0].Obj.(*corev1.Service); !ok || s.Namespace != "shop" || s.Spec.Ports[0].Port != 80 {
		t.Errorf("Service decoded as %#v", objs[0].Obj)
	}
	if d, ok := objs[1].Obj.(*appsv1.Deployment); !ok || d.APIVersion != "apps/v1" || d.Kind != "Deployment" {
		t.Errorf("Deployment decoded as %#v", objs[1].Obj)
	}
	for _, i := range []int{2, 3} {
		if _, ok := objs[i].Obj.(*unstructured.Unstructured); !ok {
			t.Errorf("%s: got %T, want *unstructured.Unstructured", objs[i].Kind, objs[i].Obj)
		}
	}
}

func TestParseJSONAndMerge(t *testing.T) {
	json := "{\n\t\"apiVersion\": \"v1\",\n\t\"kind\": \"ConfigMap\",\n\t\"metadata\": {\"name\": \"j\"},\n\t\"data\": {\"a\": \"1\"}\n}\n"
	objs, err := Parse("cm.json", []byte(json))
	if err != nil || len(objs) != 1 || objs[0].Obj.(*corev1.ConfigMap).Data["a"] != "1" {
		t.Fatalf("JSON: %v %+v", err, objs)
	}
	merge := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\nx: &base {a: \"1\", b: \"2\"}\ndata:\n  <<: *base\n  b: \"3\"\n"
	_, err = Parse("m.yaml", []byte(merge))
	if err == nil || !strings.Contains(err.Error(), `unknown field "x"`) {
		t.Fatalf("merge doc: %v", err)
	}
	merge = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\ndata:\n  <<: {a: \"1\", b: \"2\"}\n  b: \"3\"\n"
	objs, err = Parse("m.yaml", []byte(merge))
	if err != nil {
		t.Fatal(err)
	}
	if d := objs[0].Obj.(*corev1.ConfigMap).Data; d["a"] != "1" || d["b"] != "3" {
		t.Errorf("merged data = %v, want a=1 b=3", d)
	}
}

func TestHostileInput(t *testing.T) {
	bomb := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 10; i++ {
		bomb += "a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat("*a"+string(rune('0'+i-1))+", ", 9) + "*a" + string(rune('0'+i-1)) + "]\n"
	}
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"alias bomb", []byte(bomb), "(an alias bomb?)"},
		{"too large", make([]byte, MaxFileBytes+100<<10), "app.yaml: file is 8.1 MiB, larger than the 8 MiB limit"},
		{"deep flow", []byte(strings.Repeat("[", 20000)), "app.yaml:"},
		{"deep block", []byte(strings.Repeat("- ", 5000) + "x\n"), "app.yaml:"},
		{"many empty documents", []byte(strings.Repeat("---\n", 2<<20-1)), "app.yaml:10001: more than 10000 YAML documents in one file"},
		{"many objects", []byte(strings.Repeat("---\napiVersion: v1\nkind: List\nitems: []\n", 100) +
			"---\napiVersion: v1\nkind: List\nitems:\n" + strings.Repeat("- {apiVersion: v1, kind: Namespace, metadata: {name: n}}\n", MaxObjects+1)), "more than 10000 objects"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("app.yaml", tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse: %v, want an error containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") || exitcode.Code(err) != exitcode.Input {
				t.Errorf("want one line and exit code 1, got %q (code %d)", err, exitcode.Code(err))
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cm := func(name string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\n"
	}
	write("b.yml", cm("b"))
	write("a.yaml", cm("a"))
	write("c.json", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}`)
	write("notes.txt", "not a manifest")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("sub/z.yaml", cm("z"))
	single := write("sub/single.yaml", cm("s"))
	empty := t.TempDir()

	objs, err := Load([]string{single, dir, "-"}, strings.NewReader(cm("stdin")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, o.Name+"@"+filepath.Base(o.Pos.File))
	}
	want := "s@single.yaml a@a.yaml b@b.yml c@c.json stdin@-"
	if strings.Join(got, " ") != want {
		t.Errorf("Load order = %v, want %s", got, want)
	}

	errTests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"missing file", []string{filepath.Join(dir, "nope.yaml")}, "open " + filepath.Join(dir, "nope.yaml") + ": no such file or directory"},
		{"empty dir", []string{empty}, empty + ": directory has no *.yaml, *.yml or *.json files"},
		{"stdin twice", []string{"-", "-"}, "-: standard input given more than once"},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.paths, strings.NewReader(""))
			if err == nil || err.Error() != tt.want || exitcode.Code(err) != exitcode.Input {
				t.Errorf("Load: %v (code %d), want %q (code 1)", err, exitcode.Code(err), tt.want)
			}
		})
	}
	_, err = Load([]string{"-"}, strings.NewReader("kind: [\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "<stdin>:") {
		t.Errorf("stdin error %v, want it to name <stdin>", err)
	}
}

// TestLongKeysDeep checks that long keys nested deep with many siblings
// (field paths quadratic in the file size) stay bounded.
func TestLongKeysDeep(t *testing.T) {
	key := strings.Repeat("k", 8000)
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nspec:\n")
	indent := "  "
	for i := 0; i < 90; i++ { // explicit keys: YAML caps implicit ones at 1024 bytes
		b.WriteString(indent + "? " + key + "\n" + indent + ":\n")
		indent += " "
	}
	for i := 0; i < 500; i++ {
		b.WriteString(indent + "? " + key + strconv.Itoa(i) + "\n" + indent + ": 1\n")
	}
	_, err := Parse("app.yaml", []byte(b.String()))
	if err == nil || err.Error() != `app.yaml:4: unknown field "spec" in ConfigMap "x"` {
		t.Fatalf("Parse: %v", err)
	}
}
