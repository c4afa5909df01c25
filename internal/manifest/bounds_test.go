package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const deploymentWith = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: SURGE, maxUnavailable: UNAVAILABLE}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: nginx, resources: {requests: {cpu: CPU, memory: 64Mi}, limits: {memory: MEMLIMIT}}}
`

// The API server's own messages (apps/validation ValidateRollingUpdateDeployment,
// core/validation ValidateResourceQuantityValue).
func TestValidateStrategyAndQuantities(t *testing.T) {
	for _, tc := range []struct {
		surge, unavailable, cpu, memLimit string
		want                              string
	}{
		{"25%", "25%", "250m", "128Mi", ""},
		{"abc", "25%", "250m", "128Mi", `spec.strategy.rollingUpdate.maxSurge: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"-1", "1", "250m", "128Mi", `spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0`},
		{"1", "101%", "250m", "128Mi", `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{"0", "0%", "250m", "128Mi", "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		{"1", "1", `"-1"`, "128Mi", `spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{"1", "1", "250m", `"-128Mi"`, `spec.template.spec.containers[0].resources.limits[memory]: Invalid value: "-128Mi": must be greater than or equal to 0`},
	} {
		src := strings.NewReplacer("SURGE", tc.surge, "UNAVAILABLE", tc.unavailable, "CPU", tc.cpu, "MEMLIMIT", tc.memLimit).Replace(deploymentWith)
		obj := mustParse(t, src)
		Default(obj)
		err := Validate(obj)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("surge %s unavailable %s cpu %s: %v\nwant %q", tc.surge, tc.unavailable, tc.cpu, err, tc.want)
		}
	}
}

// A custom resource's name is a DNS subdomain (apiextensions-apiserver);
// a huge one is quoted shortened, with its length.
func TestCustomResourceName(t *testing.T) {
	name := strings.Repeat("a", 300)
	err := Validate(mustParse(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: "+name+"}\n"))
	if err == nil || !strings.Contains(err.Error(), "must be no more than 253 characters") || !strings.Contains(err.Error(), "(300 bytes)") {
		t.Fatalf("err %v", err)
	}
}

// A directory of files has a limit on the total, not only per file.
func TestLoadTotalLimit(t *testing.T) {
	dir := t.TempDir()
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {k: " + strings.Repeat("v", 1<<20) + "}\n"
	for i := 0; i < MaxTotalBytes/(1<<20)+1; i++ {
		os.WriteFile(filepath.Join(dir, strings.Repeat("f", i+1)+".yaml"), []byte(doc), 0o600)
	}
	_, err := Load([]string{dir}, nil)
	if err == nil || !strings.Contains(err.Error(), "more than the 32 MiB limit for one run") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err %v", err)
	}
}
