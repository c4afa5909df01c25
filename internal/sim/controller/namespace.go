package controller

import (
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

// DefaultServiceAccount is the one account the serviceaccounts controller
// ensures in every namespace (cmd/kube-controller-manager/app/core.go:
// ServiceAccountsToEnsure is "default").
const DefaultServiceAccount = "default"

// RootCACertConfigMap, its description annotation and its text are the
// root-ca-cert-publisher's (pkg/controller/certificates/
// rootcacertpublisher/publisher.go, v1.37).
const (
	RootCACertConfigMap   = "kube-root-ca.crt"
	DescriptionAnnotation = "kubernetes.io/description"
	RootCADescription     = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
		"No other usage is guaranteed across distributions of Kubernetes clusters."
	// RootCA stands for the cluster CA the publisher reads from
	// kube-controller-manager's --root-ca-file (/etc/kubernetes/pki/ca.crt).
	RootCA = "-----BEGIN CERTIFICATE-----\n(the cluster CA, /etc/kubernetes/pki/ca.crt)\n-----END CERTIFICATE-----\n"
)

// ServiceAccounts is kube-controller-manager's serviceaccount controller
// (pkg/controller/serviceaccount/serviceaccounts_controller.go): on a
// namespace added or updated, and on a ServiceAccount deleted, it syncs the
// namespace; an Active namespace without the ServiceAccount "default" gets
// one.
type ServiceAccounts struct {
	c          *apiserver.Client
	rec        *trace.Recorder
	namespaces *informer.Informer[*corev1.Namespace]
	accounts   *informer.Informer[*corev1.ServiceAccount]
	queue      *workQueue
	own        *informer.Factory
}

// NewServiceAccounts builds the controller on its client; Start opens its
// watches.
func NewServiceAccounts(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *ServiceAccounts {
	f, own := informer.Or(f, c)
	s := &ServiceAccounts{c: c, rec: rec, own: own,
		accounts:   informer.For[*corev1.ServiceAccount](f, "serviceaccounts"),
		namespaces: informer.For[*corev1.Namespace](f, "namespaces")}
	s.queue = newWorkQueue(eng, s.syncNamespace)
	s.accounts.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.ServiceAccount]) {
		if ev.Deleted() && ev.Obj.Name == DefaultServiceAccount {
			s.queue.add(ev.Obj.Namespace) // serviceAccountDeleted
		}
	})
	s.namespaces.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Namespace]) {
		if !ev.Deleted() {
			s.queue.add(ev.Obj.Name) // namespaceAdded, namespaceUpdated
		}
	})
	return s
}

// Name is the controller's client name.
func (s *ServiceAccounts) Name() string { return s.c.Actor }

// Start opens the controller's own watches; on shared informers
// kube-controller-manager opens them.
func (s *ServiceAccounts) Start() { s.own.Start() }

// syncNamespace is the controller's syncNamespace: nothing for a namespace
// gone or not Active, nothing when its informer already holds "default";
// otherwise a create (AlreadyExists counts as done).
func (s *ServiceAccounts) syncNamespace(p *engine.Proc, name string) error {
	ns, ok := s.namespaces.Get("", name)
	if !ok || ns.Status.Phase != corev1.NamespaceActive {
		return nil
	}
	if _, ok := s.accounts.Get(name, DefaultServiceAccount); ok {
		return nil
	}
	sa := &corev1.ServiceAccount{}
	sa.Name, sa.Namespace = DefaultServiceAccount, name
	s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: s.c.Actor, Kind: "serviceaccount.create",
		Object: "serviceaccounts/" + name + "/" + DefaultServiceAccount, Fields: trace.F("namespace", name, "name", DefaultServiceAccount)})
	if _, err := s.c.In(p).Create(sa); err != nil && err.Reason != "AlreadyExists" && err.Reason != "NotFound" {
		return err
	}
	return nil
}

// RootCAPublisher is kube-controller-manager's root-ca-cert-publisher
// (pkg/controller/certificates/rootcacertpublisher/publisher.go): on a
// namespace added or updated, and on its kube-root-ca.crt ConfigMap deleted
// or changed, it syncs the namespace; a namespace without the ConfigMap
// gets one holding the cluster CA.
type RootCAPublisher struct {
	c          *apiserver.Client
	rec        *trace.Recorder
	namespaces *informer.Informer[*corev1.Namespace]
	configMaps *informer.Informer[*corev1.ConfigMap]
	queue      *workQueue
	own        *informer.Factory
}

// NewRootCAPublisher builds the controller on its client; Start opens its
// watches.
func NewRootCAPublisher(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *RootCAPublisher {
	f, own := informer.Or(f, c)
	r := &RootCAPublisher{c: c, rec: rec, own: own,
		configMaps: informer.For[*corev1.ConfigMap](f, "configmaps"),
		namespaces: informer.For[*corev1.Namespace](f, "namespaces")}
	r.queue = newWorkQueue(eng, r.syncNamespace)
	r.configMaps.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.ConfigMap]) {
		// configMapDeleted, configMapUpdated (its data no longer the CA)
		if cm := ev.Obj; cm.Name == RootCACertConfigMap && (ev.Deleted() || (ev.Old != nil && cm.Data["ca.crt"] != RootCA)) {
			r.queue.add(cm.Namespace)
		}
	})
	r.namespaces.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Namespace]) {
		if !ev.Deleted() {
			r.queue.add(ev.Obj.Name) // namespaceAdded, namespaceUpdated
		}
	})
	return r
}

// Name is the controller's client name.
func (r *RootCAPublisher) Name() string { return r.c.Actor }

// Start opens the controller's own watches; on shared informers
// kube-controller-manager opens them.
func (r *RootCAPublisher) Start() { r.own.Start() }

// RootCAConfigMap is the ConfigMap the publisher writes into ns.
func RootCAConfigMap(ns string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{Data: map[string]string{"ca.crt": RootCA}}
	cm.Name, cm.Namespace = RootCACertConfigMap, ns
	cm.Annotations = map[string]string{DescriptionAnnotation: RootCADescription}
	return cm
}

// syncNamespace is the publisher's syncNamespace: create the ConfigMap
// when the informer has none (a namespace gone or terminating is not
// retried), update it when its ca.crt is not the CA.
func (r *RootCAPublisher) syncNamespace(p *engine.Proc, name string) error {
	if _, ok := r.namespaces.Get("", name); !ok {
		return nil
	}
	cm, ok := r.configMaps.Get(name, RootCACertConfigMap)
	if ok && cm.Data["ca.crt"] == RootCA {
		return nil
	}
	step := trace.Step{Phase: trace.PhaseController, Actor: r.c.Actor, Kind: "rootca.publish",
		Object: "configmaps/" + name + "/" + RootCACertConfigMap, Fields: trace.F("namespace", name, "name", RootCACertConfigMap)}
	r.rec.Add(step)
	if !ok {
		if _, err := r.c.In(p).Create(RootCAConfigMap(name)); err != nil && err.Reason != "NotFound" {
			return err
		}
		return nil
	}
	upd := cm.DeepCopy()
	upd.Data = map[string]string{"ca.crt": RootCA}
	_, err := r.c.In(p).Update(upd)
	if err != nil {
		return err
	}
	return nil
}
