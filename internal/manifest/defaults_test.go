package manifest

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func mustParse(t *testing.T, in string) runtime.Object {
	t.Helper()
	objs, err := Parse("t.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("got %d objects, want 1", len(objs))
	}
	return objs[0].Obj
}

func TestDefault(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"deployment", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80}]
        readinessProbe: {httpGet: {port: 80}}
      - name: side
        image: registry.local:5000/side:1.2
`, []string{
			"metadata.namespace=default",
			"spec.replicas=1",
			"spec.strategy.type=RollingUpdate",
			"spec.strategy.rollingUpdate.maxUnavailable=25%",
			"spec.strategy.rollingUpdate.maxSurge=25%",
			"spec.revisionHistoryLimit=10",
			"spec.progressDeadlineSeconds=600",
			"spec.template.spec.dnsPolicy=ClusterFirst",
			"spec.template.spec.restartPolicy=Always",
			"spec.template.spec.securityContext={}",
			"spec.template.spec.terminationGracePeriodSeconds=30",
			"spec.template.spec.schedulerName=default-scheduler",
			"spec.template.spec.containers[0].imagePullPolicy=Always",
			"spec.template.spec.containers[0].terminationMessagePath=/dev/termination-log",
			"spec.template.spec.containers[0].terminationMessagePolicy=File",
			"spec.template.spec.containers[0].ports[0].protocol=TCP",
			"spec.template.spec.containers[0].readinessProbe.timeoutSeconds=1",
			"spec.template.spec.containers[0].readinessProbe.periodSeconds=10",
			"spec.template.spec.containers[0].readinessProbe.successThreshold=1",
			"spec.template.spec.containers[0].readinessProbe.failureThreshold=3",
			"spec.template.spec.containers[0].readinessProbe.httpGet.path=/",
			"spec.template.spec.containers[0].readinessProbe.httpGet.scheme=HTTP",
			"spec.template.spec.containers[1].imagePullPolicy=IfNotPresent",
			"spec.template.spec.containers[1].terminationMessagePath=/dev/termination-log",
			"spec.template.spec.containers[1].terminationMessagePolicy=File",
		}},
		{"deployment with values set", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod}
spec:
  replicas: 0
  strategy: {type: Recreate}
  revisionHistoryLimit: 2
  progressDeadlineSeconds: 60
  template:
    spec:
      restartPolicy: Always
      dnsPolicy: Default
      securityContext: {runAsNonRoot: true}
      terminationGracePeriodSeconds: 5
      schedulerName: mine
      containers: [{name: c, image: "c:latest", imagePullPolicy: Never, terminationMessagePath: /x, terminationMessagePolicy: FallbackToLogsOnError}]
`, nil},
		{"replicaset", "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs, namespace: a}\nspec:\n  template:\n    spec: {restartPolicy: Always, dnsPolicy: ClusterFirst, securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: default-scheduler}\n",
			[]string{"spec.replicas=1"}},
		{"pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a}\nspec:\n  enableServiceLinks: false\n  containers:\n  - name: c\n    image: app@sha256:0123\n    resources: {limits: {memory: 1Gi, cpu: 500m}, requests: {cpu: 100m}}\n",
			[]string{
				"spec.containers[0].resources.requests.memory=1Gi",
				"spec.dnsPolicy=ClusterFirst", "spec.restartPolicy=Always", "spec.securityContext={}",
				"spec.terminationGracePeriodSeconds=30", "spec.schedulerName=default-scheduler",
				"spec.containers[0].imagePullPolicy=IfNotPresent",
				"spec.containers[0].terminationMessagePath=/dev/termination-log",
				"spec.containers[0].terminationMessagePolicy=File",
			}},
		{"service", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports: [{port: 80}, {port: 443, targetPort: https, protocol: TCP}]\n",
			[]string{
				"metadata.namespace=default", "spec.sessionAffinity=None", "spec.type=ClusterIP",
				"spec.ports[0].protocol=TCP", "spec.ports[0].targetPort=80",
				"spec.internalTrafficPolicy=Cluster",
			}},
		{"nodeport service", "apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: a}\nspec: {type: NodePort, sessionAffinity: None, ipFamilyPolicy: SingleStack, ipFamilies: [IPv4], ports: [{port: 80, protocol: UDP, targetPort: 8080}]}\n",
			[]string{"spec.externalTrafficPolicy=Cluster", "spec.internalTrafficPolicy=Cluster"}},
		{"job", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: a}\nspec:\n  template:\n    metadata: {labels: {app: j}}\n    spec: {restartPolicy: Never, dnsPolicy: ClusterFirst, securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: default-scheduler}\n",
			[]string{"spec.completions=1", "spec.parallelism=1", "spec.backoffLimit=6", "metadata.labels=spec.template.metadata.labels", "spec.completionMode=NonIndexed", "spec.suspend=false"}},
		{"cronjob", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c, namespace: a}\nspec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      parallelism: 2\n      template:\n        spec: {restartPolicy: OnFailure, dnsPolicy: ClusterFirst, securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: default-scheduler}\n",
			[]string{"spec.concurrencyPolicy=Allow", "spec.suspend=false", "spec.successfulJobsHistoryLimit=3", "spec.failedJobsHistoryLimit=1"}},
		{"cluster-scoped", "apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n", []string{"metadata.labels.kubernetes.io/metadata.name=n", "status.phase=Active"}},
		{"custom resource", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := mustParse(t, tt.in)
			before := Defaulted(obj)
			got := Default(obj)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Default filled\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if strings.Join(before, "\n") != strings.Join(got, "\n") {
				t.Errorf("Defaulted = %v, Default = %v", before, got)
			}
			if again := Default(obj); len(again) != 0 {
				t.Errorf("second Default filled %v, want nothing", again)
			}
		})
	}
}

func TestDefaultValues(t *testing.T) {
	d := mustParse(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {template: {spec: {containers: [{name: c, image: c}]}}}\n").(*appsv1.Deployment)
	Default(d)
	ru := d.Spec.Strategy.RollingUpdate
	if *d.Spec.Replicas != 1 || ru.MaxSurge.String() != "25%" || ru.MaxUnavailable.String() != "25%" ||
		*d.Spec.Template.Spec.TerminationGracePeriodSeconds != 30 || d.Namespace != "default" {
		t.Errorf("defaulted deployment: %+v", d.Spec)
	}
	s := mustParse(t, "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 8080}]}\n").(*corev1.Service)
	Default(s)
	if s.Spec.Ports[0].TargetPort.IntValue() != 8080 || s.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("defaulted service: %+v", s.Spec)
	}
}

func TestPullPolicyFor(t *testing.T) {
	for image, want := range map[string]corev1.PullPolicy{
		"nginx":                        corev1.PullAlways,
		"nginx:latest":                 corev1.PullAlways,
		"nginx:1.27":                   corev1.PullIfNotPresent,
		"registry:5000/nginx":          corev1.PullAlways,
		"registry:5000/nginx:1.2":      corev1.PullIfNotPresent,
		"nginx@sha256:abc":             corev1.PullIfNotPresent,
		"nginx:latest@sha256:abc":      corev1.PullAlways,
		"gcr.io/google-samples/gb:v1":  corev1.PullIfNotPresent,
		"localhost:5000/team/app:beta": corev1.PullIfNotPresent,
	} {
		if got := PullPolicyFor(image); got != want {
			t.Errorf("PullPolicyFor(%q) = %s, want %s", image, got, want)
		}
	}
}

// core/v1 defaults.go SetDefaults_Namespace and SetDefaults_NamespaceStatus
// (v1.37): the metadata.name label and phase Active.
func TestDefaultNamespace(t *testing.T) {
	obj := mustParse(t, "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {kubernetes.io/metadata.name: other}}\n")
	filled := Default(obj)
	ns := obj.(*corev1.Namespace)
	if got := ns.Labels[corev1.LabelMetadataName]; got != "team-a" {
		t.Errorf("label %s = %q, want team-a", corev1.LabelMetadataName, got)
	}
	if ns.Status.Phase != corev1.NamespaceActive {
		t.Errorf("phase %q, want Active", ns.Status.Phase)
	}
	want := "metadata.labels.kubernetes.io/metadata.name=team-a, status.phase=Active"
	if got := strings.Join(filled, ", "); got != want {
		t.Errorf("filled %q, want %q", got, want)
	}
}
