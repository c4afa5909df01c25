package manifest

import (
	"errors"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// deployment builds a Deployment manifest around a selector, template
// labels and one container block, so each case states only what differs.
func deployment(name, extraSpec, labels, containers string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + "}\nspec:\n" + extraSpec +
		"  template:\n    metadata: {labels: " + labels + "}\n    spec:\n      containers: " + containers + "\n"
}

const sel = "  selector: {matchLabels: {app: web}}\n"

func TestValidate(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"valid deployment", deployment("web", sel, "{app: web}", "[{name: web, image: nginx, ports: [{containerPort: 80}]}]"), ""},
		{"selector does not match", deployment("web", sel, "{app: x}", "[{name: web, image: nginx}]"),
			`Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"x"}: ` + "`selector` does not match template `labels`"},
		{"missing selector", deployment("web", "", "{app: web}", "[{name: web, image: nginx}]"),
			`Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + "`selector` does not match template `labels`]"},
		{"empty selector", deployment("web", "  selector: {}\n", "{app: web}", "[{name: web, image: nginx}]"),
			`Deployment.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{"negative replicas", deployment("web", "  replicas: -1\n"+sel, "{app: web}", "[{name: web, image: nginx}]"),
			`Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"no containers", deployment("web", sel, "{app: web}", "[]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers: Required value`},
		{"no image", deployment("web", sel, "{app: web}", "[{name: web}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].image: Required value`},
		{"no container name", deployment("web", sel, "{app: web}", "[{image: nginx}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].name: Required value`},
		{"bad container name", deployment("web", sel, "{app: web}", "[{name: Web_1, image: nginx}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{"duplicate container", deployment("web", sel, "{app: web}", "[{name: web, image: a}, {name: web, image: b}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[1].name: Duplicate value: "web"`},
		{"port out of range", deployment("web", sel, "{app: web}", "[{name: web, image: a, ports: [{containerPort: 70000}]}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`},
		{"restart policy", deployment("web", sel, "{app: web}", "[{name: web, image: a}]\n      restartPolicy: Never"),
			`Deployment.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"bad name", deployment("Web", sel, "{app: web}", "[{name: web, image: a}]"),
			`Deployment.apps "Web" is invalid: metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"requests above limits", deployment("web", sel, "{app: web}", "[{name: web, image: a, resources: {requests: {cpu: 2}, limits: {cpu: 1}}}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`},
		// pkg/apis/core/validation/validation.go ValidateResourceRequirements
		// (v1.37): an extended resource cannot be overcommitted
		// (helper.IsOvercommitAllowed): a request needs a limit, and equal.
		{"extended request without limit", deployment("web", sel, "{app: web}", "[{name: web, image: a, resources: {requests: {example.com/gpu: 1}}}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`},
		{"extended request below limit", deployment("web", sel, "{app: web}", "[{name: web, image: a, resources: {requests: {example.com/gpu: 1}, limits: {example.com/gpu: 2}}}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`},
		{"hugepages request without limit", deployment("web", sel, "{app: web}", "[{name: web, image: a, resources: {requests: {hugepages-2Mi: 2Mi, memory: 1Mi}, limits: {memory: 1Mi}}}]"),
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`},
		{"extended limit only", deployment("web", sel, "{app: web}", "[{name: web, image: a, resources: {limits: {example.com/gpu: 1}}}]"), ""},
		{"service name", "apiVersion: v1\nkind: Service\nmetadata: {name: 1web}\nspec: {ports: [{port: 80}]}\n",
			`Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`},
		{"service without ports", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n",
			`Service "web" is invalid: spec.ports: Required value`},
		{"headless without ports", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {clusterIP: None}\n", ""},
		{"external name", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: ExternalName, externalName: example.com}\n", ""},
		{"service port range", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{name: a, port: 0, targetPort: 8080}, {port: 80}]}\n",
			`Service "web" is invalid: [spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[1].name: Required value]`},
		{"external policy on a ClusterIP Service", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {externalTrafficPolicy: Local, ports: [{port: 80}]}\n",
			`Service "web" is invalid: spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services`},
		{"external policy on a NodePort Service", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: NodePort, externalTrafficPolicy: Local, ports: [{port: 80}]}\n", ""},
		{"health-check node port without Local", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: LoadBalancer, healthCheckNodePort: 31000, ports: [{port: 80}]}\n",
			"Service \"web\" is invalid: spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"},
		{"health-check node port of a Local LoadBalancer", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: LoadBalancer, externalTrafficPolicy: Local, healthCheckNodePort: 31000, ports: [{port: 80}]}\n", ""},
		{"headless NodePort", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: NodePort, clusterIP: None, ports: [{port: 80}]}\n",
			`Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`},
		{"affinity timeout past a day", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {sessionAffinity: ClientIP, sessionAffinityConfig: {clientIP: {timeoutSeconds: 86401}}, ports: [{port: 80}]}\n",
			`Service "web" is invalid: spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400`},
		{"affinity timeout of a day", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {sessionAffinity: ClientIP, sessionAffinityConfig: {clientIP: {timeoutSeconds: 86400}}, ports: [{port: 80}]}\n", ""},
		{"cluster IP placeholder", "apiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec: {clusterIP: CLUSTER_DNS_IP, ports: [{port: 53}]}\n",
			`Service "dns" is invalid: spec.clusterIPs[0]: Invalid value: "CLUSTER_DNS_IP": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`},
		{"pod generateName", "apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-}\nspec: {containers: [{name: c, image: c}]}\n", ""},
		// issue 29 Low: objects the API server refuses (core/validation v1.37).
		{"probe period -1", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: c, livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: -1}}]}\n",
			`Pod "p" is invalid: spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`},
		{"quota -1", "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: \"-1\"}}\n",
			`ResourceQuota "q" is invalid: spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0`},
		{"limit range min above max", "apiVersion: v1\nkind: LimitRange\nmetadata: {name: l}\nspec: {limits: [{type: Container, min: {cpu: \"2\"}, max: {cpu: \"1\"}}]}\n",
			`LimitRange "l" is invalid: spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1`},
		{"node capacity -4", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: \"-4\"}}\n",
			`Node "n1" is invalid: status.capacity.cpu: Invalid value: "-4": must be greater than or equal to 0`},
		{"node pods not whole", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {pods: 1500m}}\n",
			`Node "n1" is invalid: status.allocatable.pods: Invalid value: "1500m": must be an integer`},
		{"pod without name", "apiVersion: v1\nkind: Pod\nmetadata: {}\nspec: {containers: [{name: c, image: c}]}\n",
			`Pod "" is invalid: metadata.name: Required value: name or generateName is required`},
		{"configmap name", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: My.Config}\n",
			`ConfigMap "My.Config" is invalid: metadata.name: Invalid value: "My.Config": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"job without restartPolicy", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: pi}\nspec: {template: {spec: {containers: [{name: pi, image: perl}]}}}\n",
			`Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"custom resource", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: any.thing}\nspec: {Whatever: 1}\n", ""},
		// apiextensions-apiserver validates a custom resource's name as a DNS subdomain
		{"custom resource name", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: ANY}\n",
			`Widget.example.com "ANY" is invalid: metadata.name: Invalid value: "ANY": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"rbac name with colon, namespace dropped", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: \"system:coredns\", namespace: kube-system}\n", ""},
		{"rbac name with slash", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: a/b}\n",
			`Role.rbac.authorization.k8s.io "a/b" is invalid: metadata.name: Invalid value: "a/b": may not contain '/'`},
		{"rbac name dot-dot", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: \"..\"}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n",
			`ClusterRoleBinding.rbac.authorization.k8s.io ".." is invalid: metadata.name: Invalid value: "..": may not be '..'`},
		// generateName is checked as a prefix: ".." may yet become a valid name
		{"rbac generateName dot-dot", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {generateName: \"..\"}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := mustParse(t, tt.in)
			Default(obj)
			err := Validate(obj)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: nil, want %s", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Validate\n got: %s\nwant: %s", err, tt.want)
			}
			var se *apierrors.StatusError
			if !errors.As(err, &se) || se.Status().Code != http.StatusUnprocessableEntity || se.Status().Reason != metav1.StatusReasonInvalid {
				t.Errorf("want a 422 Invalid StatusError, got %#v", err)
			}
		})
	}
}
