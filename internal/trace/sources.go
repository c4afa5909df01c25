package trace

import "github.com/k8sexplain/k8sexplain/internal/provenance"

// sources says where each step kind's explanation comes from: the upstream
// files or pull requests it paraphrases and the release it was read against
// (package provenance). It lives apart from the catalogue files so that a
// change of wording and a change of source do not touch the same lines; the
// catalogue test fails on an explanation without a source, and
// docs/PROVENANCE.md lists them.
func sources() map[string]provenance.Source {
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	containerd := func(refs ...string) provenance.Source {
		return provenance.Of("containerd v2.2", refs...)
	}
	all := map[string]provenance.Source{
		// kubectl
		"kubectl.setimage": k("staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go", "staging/src/k8s.io/kubectl/pkg/cmd/set/helper.go (CalculatePatches: strategic merge)", "pkg/controller/deployment/sync.go"),
		"kubectl.undo":     k("staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go (JSON patch of spec.template)", "pkg/controller/deployment/util/deployment_util.go (SetNewReplicaSetAnnotations, revision-history)"),
		"kubectl.delete":   k("staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go (--wait defaults to true)"),
		"kubectl.read":     k("staging/src/k8s.io/cli-runtime/pkg/resource/builder.go"),
		"kubectl.validate": k("staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (GetValidationDirective: strict)", "staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager (server-side field validation, GA v1.27)", "staging/src/k8s.io/kubectl/pkg/util/apply.go (last-applied-configuration)"),
		"kubectl.post":     k("staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (applyOneObject: Get, then Create on NotFound)"),
		"kubectl.error":    k("staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (errors collected, then returned)"),
		"kubectl.created":  k("staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (printer: created)"),

		"kubectl.ssa":           k("staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (applyOneObject: ApplyPatchType, fieldManagerServerSideApply \"kubectl\", Force)"),
		"kubectl.csa":           k("staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go (CreateThreeWayMergePatch of original, modified, current)", "staging/src/k8s.io/kubectl/pkg/util/apply.go (GetModifiedConfiguration)", "staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go", "pkg/apis/apps/v1/defaults.go (replicas 1)"),
		"kubectl.scale":         k("staging/src/k8s.io/kubectl/pkg/scale/scale.go (MergePatchType on the scale subresource)", "staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (managerOrUserAgent)", "staging/src/k8s.io/client-go/rest/config.go (DefaultKubernetesUserAgent)", "staging/src/k8s.io/apimachinery/pkg/util/managedfields/scalehandler.go"),
		"kubectl.label":         k("staging/src/k8s.io/kubectl/pkg/cmd/label/label.go (field manager kubectl-label, merge patch)"),
		"kubectl.managedfields": k("staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go (ManagedFieldsEntry)", "staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (--show-managed-fields)", "sigs.k8s.io/structured-merge-diff/v6 merge/update.go (Apply: removed fields released, deleted when no other owner)"),
		"apiserver.apply":       k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (applyPatcher)", "staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go", "staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go (\"Apply failed with 1 conflict: conflict with …\")", "pkg/registry/apps/deployment/strategy.go (GetResetFields)"),

		// kube-apiserver
		"apiserver.patch":               k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (patcher applies to the stored object, retried on conflict)"),
		"apiserver.clusterip":           k("pkg/registry/core/service/storage/alloc.go", "pkg/registry/core/service/ipallocator/ipallocator.go (IPAddress objects)", "KEP-1880 (MultiCIDRServiceAllocator, GA v1.33)"),
		"apiserver.nodeport":            k("pkg/registry/core/service/storage/alloc.go (allocNodePorts)", "pkg/registry/core/service/portallocator/allocator.go (random scan above the static band, calcOffset)", "KEP-3668 (ServiceNodePortStaticSubrange, GA v1.29)"),
		"apiserver.healthchecknodeport": k("pkg/registry/core/service/storage/alloc.go (allocHealthCheckNodePort)", "pkg/api/service/util.go (NeedsHealthCheck)"),
		"apiserver.conflict":            k("staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (GuaranteedUpdate)", "staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (OptimisticLockErrorMsg)", "pkg/registry/core/pod/strategy.go (status and spec strategies)"),
		"apiserver.graceful":            k("staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete)", "pkg/registry/core/pod/strategy.go (CheckGracefulDelete)", "staging/src/k8s.io/api/core/v1/types.go (DefaultTerminationGracePeriodSeconds 30)"),
		"apiserver.reject":              k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go"),
		"apiserver.authn":               k("staging/src/k8s.io/apiserver/pkg/authentication/request/union/union.go", "pkg/kubeapiserver/authenticator/config.go"),
		"apiserver.authz":               k("cmd/kubeadm/app/phases/controlplane/manifests.go (--authorization-mode=Node,RBAC)", "plugin/pkg/auth/authorizer/rbac/rbac.go"),
		"apiserver.defaulted":           k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode with defaulting)", "pkg/apis/apps/v1/defaults.go", "pkg/apis/core/v1/defaults.go"),
		"apiserver.mutating":            k("pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins)", "plugin/pkg/admission/namespace/lifecycle/admission.go (Admit only)", "plugin/pkg/admission/noderestriction/admission.go (Admit only)", "plugin/pkg/admission/limitranger/admission.go", "plugin/pkg/admission/serviceaccount/admission.go", "plugin/pkg/admission/priority/admission.go", "plugin/pkg/admission/defaulttolerationseconds/admission.go", "plugin/pkg/admission/storage/storageclass/setdefault/admission.go", "plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go"),
		"apiserver.validated":           k("pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins)", "staging/src/k8s.io/apiserver/pkg/admission/chain.go", "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go"),
		"apiserver.response":            k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (201 after the store's Create)"),
		"apiserver.bound":               k("pkg/registry/core/pod/storage/storage.go (BindingREST.Create returns a Status; assignPod sets nodeName and PodScheduled)"),
		"apiserver.updated":             k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/update.go", "staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go"),
		"apiserver.statuspatch":         k("pkg/kubelet/status/status_manager.go (syncPod)", "pkg/util/pod/pod.go (PatchPodStatus: strategic merge)"),
		"etcd.put":                      k("staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (resourceVersion = mod revision)").Plus(provenance.Of("etcd v3.6", "etcd-io/etcd server/mvcc/kvstore.go")),

		// controllers
		"controller.conflict":     k("pkg/controller/deployment/deployment_controller.go (handleErr)", "staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go (5 ms base, exponential)"),
		"controller.observe":      k("staging/src/k8s.io/client-go/tools/cache/reflector.go (watchList, list then watch as fallback)", "staging/src/k8s.io/client-go/features/known_features.go (WatchListClient on since v1.35)", "KEP-3157"),
		"deployment.recreatewait": k("pkg/controller/deployment/recreate.go (oldPodsRunning)"),
		"deployment.reuse":        k("pkg/controller/deployment/sync.go (getNewReplicaSet)", "pkg/controller/deployment/util/deployment_util.go (SetNewReplicaSetAnnotations)"),
		"deployment.rollout":      k("pkg/controller/deployment/rolling.go (reconcileNewReplicaSet, reconcileOldReplicaSets)", "pkg/controller/deployment/sync.go (calculateStatus: terminatingReplicas)", "pkg/features/kube_features.go (DeploymentReplicaSetTerminatingReplicas)"),
		"deployment.complete":     k("pkg/controller/deployment/progress.go", "pkg/controller/deployment/util/deployment_util.go (NewRSAvailableReason)", "pkg/controller/deployment/sync.go (cleanupDeployment)"),
		"deployment.deadline":     k("pkg/controller/deployment/progress.go (syncRolloutStatus, requeueStuckDeployment)", "pkg/controller/deployment/util/deployment_util.go (TimedOutReason)"),
		"deployment.newrs":        k("pkg/controller/deployment/sync.go (getNewReplicaSet)", "pkg/controller/controller_utils.go (ComputeHash)"),
		"deployment.status":       k("pkg/controller/deployment/sync.go (calculateStatus)", "pkg/controller/deployment/util/deployment_util.go (MaxUnavailable)", "staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go"),
		"replicaset.shrink":       k("pkg/controller/replicaset/replica_set.go (getPodsToDelete)", "pkg/controller/controller_utils.go (ActivePodsWithRanks.Less)"),
		"replicaset.diff":         k("pkg/controller/replicaset/replica_set.go (manageReplicas, slowStartBatch)", "staging/src/k8s.io/apiserver/pkg/storage/names/generate.go"),
		"endpointslice.create":    k("pkg/controller/endpointslice/endpointslice_controller.go", "staging/src/k8s.io/endpointslice/reconciler.go", "pkg/controller/endpoint/endpoints_controller.go (the legacy Endpoints controller, still run)"),
		"event":                   k("staging/src/k8s.io/client-go/tools/record/event.go", "staging/src/k8s.io/client-go/tools/events/event_recorder.go (events.k8s.io, the scheduler's)", "cmd/kube-apiserver/app/options/options.go (--event-ttl 1h)"),
		"event.patch":             k("staging/src/k8s.io/client-go/tools/record/events_cache.go (EventCorrelator, EventAggregator)"),
		"event.spam":              k("staging/src/k8s.io/client-go/tools/record/events_cache.go (EventSourceObjectSpamFilter: burst 25, refill 1 per 300 s)"),
		"resourcequota.sync":      k("pkg/controller/resourcequota/resource_quota_controller.go", "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (status unknown for quota)"),
		"serviceaccount.create":   k("pkg/controller/serviceaccount/serviceaccounts_controller.go (syncNamespace)", "cmd/kube-controller-manager/app/core.go (ServiceAccountsToEnsure: default)", "plugin/pkg/admission/serviceaccount/admission.go (default account, refused while missing)"),
		"rootca.publish":          k("pkg/controller/certificates/rootcacertpublisher/publisher.go (syncNamespace)", "pkg/serviceaccount/util.go (kube-api-access projected volume)", "pkg/apis/core/v1/defaults.go (SetDefaults_Namespace)", "pkg/registry/core/namespace/strategy.go (PrepareForCreate: finalizer, phase)", "pkg/controller/namespace/namespace_controller.go"),
		"unmodeled":               k("cmd/kube-controller-manager/app/controllermanager.go (NewControllerDescriptors)"),

		// admission
		"admission.limitranger": k("plugin/pkg/admission/limitranger/admission.go", "pkg/apis/core/v1/helper/qos/qos.go"),
		"apiserver.webhook.call": k("pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins: MutatingAdmissionWebhook last of the mutating, ValidatingAdmissionWebhook before ResourceQuota)",
			"staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go (callAttrMutatingHook: context.WithTimeout(timeoutSeconds), r.Timeout → ?timeout=)",
			"staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go (parallel calls)", "pkg/apis/admissionregistration/v1/defaults.go (timeoutSeconds 10, failurePolicy Fail, port 443)",
			"pkg/apis/admissionregistration/validation/validation.go (timeout between 1 and 30 seconds)"),
		"apiserver.webhook.timeout": k("staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go (failing closed: apierrors.NewInternalError)",
			"staging/src/k8s.io/apiserver/pkg/util/webhook/error.go (ErrCallingWebhook: failed calling webhook %q: …)", "pkg/controller/replicaset/replica_set.go (FailedCreate: Error creating: …)"),
		"apiserver.webhook.failopen": k("staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go (failing open: addFailedOpenAnnotation, ObserveWebhookFailOpen, no warning)",
			"staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go (failed-open.validating.webhook.admission.k8s.io/round_0_index_N)",
			"staging/src/k8s.io/apiserver/pkg/admission/metrics/metrics.go (webhook_fail_open_count)"),
		"kubelet.static": k("pkg/kubelet/config/file.go (staticPodPath, fileCheckFrequency 20 s, inotify)", "pkg/kubelet/config/common.go (applyDefaults: generatePodName <name>-<node>, UID hash of pod, host and file, config.hash, NoExecute toleration)",
			"pkg/kubelet/types/pod_update.go (kubernetes.io/config.source, config.seen, config.hash)", "cmd/kubeadm/app/constants/constants.go (/etc/kubernetes/manifests)"),
		"kubelet.mirror": k("pkg/kubelet/pod/mirror_client.go (CreateMirrorPod: config.mirror annotation, Node ownerReference controller: true)", "pkg/kubelet/kubelet.go (SyncPod: the mirror before the runtime's SyncPod)",
			"plugin/pkg/admission/noderestriction/admission.go (a node may create only its own mirror pods)", "plugin/pkg/admission/serviceaccount/admission.go (mirror pods' spec left alone)", "pkg/kubelet/status/status_manager.go (status written to the mirror)"),
		"kubectl.deletemirror": k("staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go", "pkg/registry/core/pod/strategy.go (CheckGracefulDelete)"),
		"kubelet.mirror.replace": k("pkg/kubelet/kubelet.go (SyncPod: a mirror with deletionTimestamp is deleted and recreated)", "pkg/kubelet/pod/mirror_client.go (DeleteMirrorPod: GracePeriodSeconds 0, UID precondition)",
			"pkg/kubelet/kubelet.go (HandlePodUpdates, handleMirrorPod)"),
		"kubelet.mirror.status": k("pkg/kubelet/status/status_manager.go (syncPeriod 10 s, syncBatch, needsReconcile)"),
		"admission.quota":       k("staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (checkQuotas: status.used updated before the create)"),

		// kube-scheduler
		"scheduler.profile": k("pkg/scheduler/apis/config/v1/default_plugins.go", "pkg/scheduler/framework/plugins/noderesources/fit.go (scoring strategies)"),
		"scheduler.other":   k("pkg/scheduler/eventhandlers.go (responsibleForPod)"),
		"scheduler.queue":   k("pkg/scheduler/eventhandlers.go (unassigned pods to the queue)"),
		"scheduler.filter":  k("pkg/scheduler/apis/config/v1/default_plugins.go", "pkg/scheduler/framework/plugins/noderesources/fit.go"),
		"scheduler.score":   k("pkg/scheduler/apis/config/v1/default_plugins.go (weights)", "pkg/scheduler/schedule_one.go (prioritizeNodes, selectHost)"),
		"scheduler.single":  k("pkg/scheduler/schedule_one.go (schedulePod: one feasible node)"),
		"scheduler.bind":    k("pkg/scheduler/schedule_one.go (assume, then bind)", "pkg/scheduler/framework/plugins/defaultbinder/default_binder.go"),

		// kubelet
		"kubelet.admit":       k("pkg/kubelet/kubelet.go (HandlePodAdditions)", "pkg/kubelet/config/apiserver.go (fieldSelector spec.nodeName)", "pkg/apis/core/v1/helper/qos/qos.go"),
		"kubelet.kill":        k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer)"),
		"kubelet.prestop":     k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer, executePreStopHook, minimumGracePeriodInSeconds 2)"),
		"kubelet.exited":      k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff)", "pkg/kubelet/kubelet.go (backOffPeriod 10 s, MaxContainerBackOff 300 s)"),
		"kubelet.exitednow":   k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff)", "pkg/kubelet/kubelet.go (backOffPeriod 10 s, MaxContainerBackOff 300 s)"),
		"kubelet.liveness":    k("pkg/kubelet/prober/worker.go", "pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions: liveness failure kills)"),
		"runtime.unready":     k("pkg/kubelet/prober/worker.go (each probe on its own worker)", "pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions: liveness failure kills)"),
		"kubelet.readiness":   k("pkg/kubelet/prober/worker.go", "pkg/kubelet/prober/prober_manager.go"),
		"kubelet.finaldelete": k("pkg/kubelet/status/status_manager.go (canBeDeleted, Delete with grace 0)"),
		"kubelet.initstatus":  k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)", "pkg/kubelet/status/generate.go (PodInitialized)", "pkg/printers/internalversion/printers.go (Init:N/M)"),
		"kubelet.sidecar":     k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions: restartable init containers)", "KEP-753 (SidecarContainers, GA v1.33)"),
		"kubelet.initretry":   k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)"),
		"kubelet.initnever":   k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)", "pkg/kubelet/kubelet_pods.go (getPhase)"),
		"kubelet.running":     k("pkg/kubelet/status/status_manager.go", "pkg/kubelet/prober/prober_manager.go (no readiness probe: ready)", "pkg/kubelet/kubelet_pods.go (generateAPIPodStatus: Pending, ContainerCreating, hostIP, startTime)"),
		"kubelet.probe":       k("pkg/kubelet/prober/worker.go", "pkg/controller/endpointslice/ (endpoint conditions)"),
		"kubelet.startup":     k("pkg/kubelet/prober/prober_manager.go (UpdatePodStatus: started, then ready = started without a readiness probe)", "pkg/kubelet/prober/worker.go (readiness and liveness wait for started)"),

		// the stories
		"kubectl.autoscale":       k("staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go (--cpu as a percentage: Utilization target)", "pkg/apis/autoscaling/v2/defaults.go (SetDefaults_HorizontalPodAutoscalerBehavior, GenerateHPAScaleUpRules, GenerateHPAScaleDownRules)"),
		"story.load":              k("pkg/kubelet/cm (CPU limit as CFS quota)", "pkg/controller/podautoscaler/replica_calculator.go (what the HPA reads: usage per pod)"),
		"metrics.scrape":          provenance.Of("metrics-server v0.8", "kubernetes-sigs/metrics-server pkg/scraper/scraper.go (--metric-resolution 15s)", "kubernetes-sigs/metrics-server pkg/storage/pod.go (rate from two points)"),
		"hpa.failed":              k("pkg/controller/podautoscaler/horizontal.go (computeStatusForResourceMetric, getUnableComputeReplicaCountCondition, reconcileAutoscaler: FailedComputeMetricsReplicas)", "pkg/controller/podautoscaler/replica_calculator.go (GetResourceReplicas errors)"),
		"hpa.sync":                k("pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler, computeReplicasForMetrics)", "pkg/controller/podautoscaler/replica_calculator.go (GetResourceReplicas)", "pkg/controller/podautoscaler/metrics/utilization.go (GetResourceUtilizationRatio)", "cmd/kube-controller-manager/app/options/hpacontroller.go (sync period 15s, tolerance 0.1)"),
		"hpa.tolerance":           k("pkg/controller/podautoscaler/replica_calculator.go (GetResourceReplicas: tolerance)", "cmd/kube-controller-manager/app/options/hpacontroller.go (--horizontal-pod-autoscaler-tolerance 0.1)"),
		"hpa.rebalance":           k("pkg/controller/podautoscaler/replica_calculator.go (groupPods, GetResourceReplicas: missing and unready pods)", "cmd/kube-controller-manager/app/options/hpacontroller.go (--horizontal-pod-autoscaler-cpu-initialization-period 5m, --horizontal-pod-autoscaler-initial-readiness-delay 30s)"),
		"hpa.stabilized":          k("pkg/controller/podautoscaler/horizontal.go (stabilizeRecommendationWithBehaviors, maybeInitScaleDownStabilizationWindow)", "cmd/kube-controller-manager/app/options/hpacontroller.go (--horizontal-pod-autoscaler-downscale-stabilization 5m)"),
		"hpa.limited":             k("pkg/controller/podautoscaler/horizontal.go (convertDesiredReplicasWithBehaviorRate, calculateScaleUpLimitWithScalingRules, calculateScaleDownLimitWithBehaviors)", "pkg/apis/autoscaling/v2/defaults.go"),
		"hpa.scale":               k("pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler: Scales().Update, SuccessfulRescale)", "pkg/registry/apps/deployment/storage/storage.go (ScaleREST)", "pkg/controller/deployment/sync.go (scale: no new ReplicaSet for an unchanged template)"),
		"statefulset.revision":    k("pkg/controller/statefulset/stateful_set_control.go (getStatefulSetRevisions)", "pkg/controller/history/controller_history.go (NewControllerRevision, ControllerRevisionHashLabel)"),
		"statefulset.create":      k("pkg/controller/statefulset/stateful_pod_control.go (CreateStatefulPod, createPersistentVolumeClaims, recordPodEvent, recordClaimEvent)", "pkg/controller/statefulset/stateful_set_utils.go (newStatefulSetPod, getPersistentVolumeClaimName, initIdentity)"),
		"statefulset.terminating": k("pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet: isTerminating, waiting for the Pod to terminate)", "pkg/controller/podgc/gc_controller.go (out-of-service taint)"),
		"kubectl.partition":       k("staging/src/k8s.io/api/apps/v1/types.go (RollingUpdateStatefulSetStrategy.Partition)", "pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet: updateMin = partition)"),
		"statefulset.update":      k("pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet: delete the largest ordinal not at updateRevision, wait for healthy)", "pkg/controller/statefulset/stateful_set_utils.go (newVersionedStatefulSetPod: ordinals below the partition get currentRevision)"),
		"pv.wait":                 k("pkg/controller/volume/persistentvolume/pv_controller.go (syncUnboundClaim, emitEventForUnboundDelayBindingClaim)", "staging/src/k8s.io/component-helpers/storage/volume/helpers.go (IsDelayBindingMode)"),
		"pv.noclass":              k("pkg/controller/volume/persistentvolume/pv_controller.go (provisionClaim, findProvisionablePlugin: ProvisioningFailed)", "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (PreFilter: unbound immediate claims)"),
		"pv.classless":            k("pkg/controller/volume/persistentvolume/pv_controller.go (syncUnboundClaim: FailedBinding)", "plugin/pkg/admission/storage/storageclass/setdefault/admission.go (only an unset storageClassName)"),
		"pv.provision":            k("pkg/controller/volume/persistentvolume/pv_controller.go (provisionClaim, provisionClaimOperationExternal, setClaimProvisioner)"),
		"pv.bind":                 k("pkg/controller/volume/persistentvolume/pv_controller.go (syncVolume, bind, bindVolumeToClaim, bindClaimToVolume, updateClaimStatus)", "staging/src/k8s.io/component-helpers/storage/volume/helpers.go (AnnBindCompleted, AnnBoundByController)"),
		"provisioner.create":      provenance.Of("sig-storage-lib-external-provisioner v11", "controller/controller.go (shouldProvision, provisionClaimOperation, getProvisionedVolumeNameForClaim)").Plus(provenance.Of("local-path-provisioner v0.0.31", "provisioner.go (Provision: hostPath, nodeAffinity)")),
		"scheduler.prebind":       k("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (PreFilter, Filter, Reserve, PreBind)", "pkg/scheduler/framework/plugins/volumebinding/binder.go (FindPodVolumes, AssumePodVolumes, BindPodVolumes: poll every second)", "pkg/scheduler/apis/config/v1/defaults.go (bindTimeoutSeconds 600)"),
		"scheduler.volumesbound":  k("pkg/scheduler/framework/plugins/volumebinding/binder.go (checkBindings, isPVCFullyBound)", "pkg/scheduler/schedule_one.go (RunPreBindPlugins before bind)"),
		"kubelet.volumes":         k("pkg/kubelet/kubelet.go (SyncPod: WaitForAttachAndMount before the runtime's SyncPod)", "pkg/kubelet/volumemanager/volume_manager.go (podAttachAndMountRetryInterval 300ms)"),
		"statefulset.wait":        k("pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet: monotonic creation under OrderedReady)", "staging/src/k8s.io/api/apps/v1/types.go (PodManagementPolicyType)"),
		"story.nodedown":          k("pkg/kubelet/nodelease/", "pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth)"),
		"node.unknown":            k("pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth)", "pkg/controller/nodelifecycle/config/v1alpha1/defaults.go", "#126287 (grace period 50 s)"),
		"node.taint":              k("pkg/controller/nodelifecycle/node_lifecycle_controller.go (doNoScheduleTaintingPass, doNoExecuteTaintingPass)", "pkg/controller/util/node/controller_utils.go", "staging/src/k8s.io/cloud-provider/node/helpers/taints.go (AddOrUpdateTaintOnNode, PatchNodeTaints)"),
		"node.evictplan":          k("plugin/pkg/admission/defaulttolerationseconds/admission.go"),
		"node.podsnotready":       k("pkg/controller/util/node/controller_utils.go (MarkPodsNotReady)"),
		"node.evict":              k("pkg/controller/tainteviction/taint_eviction.go", "pkg/controller/podgc/gc_controller.go (out-of-service taint)", "pkg/controller/statefulset/stateful_set_control.go"),
		"race.removed":            k("pkg/proxy/iptables/proxier.go (syncRunner)", "pkg/proxy/runner/bounded_frequency_runner.go", "#131615 (no burst since v1.34)", "pkg/proxy/apis/config/v1alpha1/defaults.go (MinSyncPeriod 1 s)"),
		"race.result":             k("pkg/proxy/iptables/proxier.go (syncRunner)", "pkg/proxy/runner/bounded_frequency_runner.go", "#131615 (no burst since v1.34)", "pkg/proxy/apis/config/v1alpha1/defaults.go (MinSyncPeriod 1 s)").Plus(provenance.Of("Go 1.26", "golang/go src/net/http/server.go (Server.Shutdown)")),

		// the container runtime
		"cri.RunPodSandbox":     k("staging/src/k8s.io/cri-api/pkg/apis/runtime/v1/api.proto").Plus(containerd("containerd/containerd internal/cri/server/podsandbox/sandbox_run.go")),
		"cri.PullImage":         k("pkg/apis/core/v1/defaults.go (imagePullPolicy)", "pkg/kubelet/apis/config/v1beta1/defaults.go (serializeImagePulls true)", "pkg/kubelet/images/puller.go"),
		"cri.PullImageResolved": k("pkg/kubelet/images/image_manager.go", "pkg/kubelet/images/puller.go").Plus(containerd("containerd/containerd internal/cri/server/images/image_pull.go")),
		"cri.PullImageFailed":   k("pkg/kubelet/images/image_manager.go (ErrImagePull, ImagePullBackOff)", "pkg/kubelet/kubelet.go (image back-off 10 s to 300 s)"),
		"cri.ImagePresent":      k("pkg/kubelet/images/image_manager.go (shouldPullImage)", "pkg/scheduler/framework/plugins/imagelocality/image_locality.go"),
		"cri.StopContainer":     k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer: StopContainer with the grace period left as timeout)").Plus(containerd("containerd/containerd internal/cri/server/container_stop.go")),
		"cri.RemoveContainer":   k("pkg/kubelet/kubelet.go (cleanUpContainersInPod: removeAll for a deleted pod)", "pkg/kubelet/pod_container_deletor.go").Plus(containerd("containerd/containerd internal/cri/server/container_remove.go")),
		"cri.CreateContainer":   k("pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer)").Plus(containerd("containerd/containerd internal/cri/server/container_create.go")),
		"runtime.pullpause":     containerd("containerd/containerd internal/cri/server/podsandbox/sandbox_run.go (sandbox image ensured by the runtime)", "kubernetes/kubernetes cmd/kubeadm/app/preflight/checks.go (ImagePullCheck)"),
		"runtime.sandbox":       containerd("containerd/containerd internal/cri/server/podsandbox/sandbox_run.go (CNI setup in the sandbox's netns)", "containernetworking/plugins plugins/main/bridge/bridge.go"),
		"runtime.namespaces":    containerd("containerd/containerd internal/cri/server/container_create_linux.go (cgroup namespace on cgroup v2 unless privileged)", "containerd/containerd internal/cri/server/podsandbox/helpers_linux.go (join the sandbox's net, ipc, uts)"),
		"runtime.cgroup":        k("pkg/kubelet/cm/helpers_linux.go (MilliCPUToShares, MilliCPUToQuota)").Plus(provenance.Of("runc v1.3.3", "opencontainers/runc#4785", "opencontainers/cgroups utils.go (ConvertCPUSharesToCgroupV2Value)")),
		"runtime.start":         k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer: SIGTERM to the container's PID 1)"),
		"runtime.sigterm":       k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer)").Plus(provenance.Of("Go 1.26", "golang/go src/net/http/server.go (Server.Shutdown)")),
		"runtime.exited":        k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer)"),
		"runtime.sigkill":       k("pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer: StopContainer with the remaining grace)").Plus(containerd("containerd/containerd internal/cri/server/container_stop.go")),
		"runtime.panic":         provenance.Of("Go 1.26", "golang/go src/runtime/panic.go (fatalpanic: exit(2))"),
		"runtime.oom":           k("pkg/kubelet/cm/helpers_linux.go").Plus(containerd("containerd/containerd internal/cri/server/events.go (reason OOMKilled)")),
		"runtime.restart":       k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions: the sandbox is kept)"),
		"runtime.initdone":      k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)"),
		"runtime.initfailed":    k("pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)"),

		// Services
		"kubeproxy.sync":          k("pkg/proxy/iptables/proxier.go (syncProxyRules: KUBE-SVC jumps to a KUBE-SEP chain, which DNATs)"),
		"kubeproxy.reject":        k("pkg/proxy/iptables/proxier.go (syncProxyRules: filter-table REJECT without endpoints)"),
		"kubeproxy.rejectagain":   k("pkg/proxy/iptables/proxier.go (syncProxyRules, stale chains deleted)"),
		"kubeproxy.local":         k("pkg/proxy/iptables/proxier.go (syncProxyRules: internalTrafficPolicy Local → KUBE-SVL)", "pkg/proxy/topology.go (CategorizeEndpoints)"),
		"kubeproxy.nolocal":       k("pkg/proxy/iptables/proxier.go (syncProxyRules: DROP \"has no local endpoints\")", "pkg/proxy/topology.go (CategorizeEndpoints)"),
		"kubeproxy.nodeport":      k("pkg/proxy/iptables/proxier.go (syncProxyRules: KUBE-NODEPORTS → KUBE-EXT, masquerade for externalTrafficPolicy Cluster)", "pkg/registry/core/service/portallocator/allocator.go"),
		"kubeproxy.nodeportlocal": k("pkg/proxy/iptables/proxier.go (syncProxyRules: KUBE-EXT → KUBE-SVL without masquerade, so the client IP is preserved)", "https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/#preserving-the-client-source-ip"),
		"kubeproxy.nodeportdrop":  k("pkg/proxy/iptables/proxier.go (syncProxyRules: KUBE-EXTERNAL-SERVICES DROP \"has no local endpoints\")"),
		"kubeproxy.healthcheck":   k("pkg/proxy/healthcheck/service_health.go (200 with local endpoints, 503 without)", "pkg/registry/core/service/storage/alloc.go (allocHealthCheckNodePort)"),
		"dns.record":              provenance.Of("CoreDNS v1.12", "coredns/coredns plugin/kubernetes/kubernetes.go", "kubernetes/dns docs/specification.md"),
		"dns.host":                provenance.Of("CoreDNS v1.12", "coredns/coredns plugin/kubernetes/kubernetes.go (findServices, endpointHostname)", "kubernetes/dns docs/specification.md (2.4.1 Records for a Headless Service)").Plus(provenance.K8s("v1.37", "staging/src/k8s.io/endpointslice/utils.go (podToEndpoint: hostname when subdomain is the Service)")),
		"dns.hostgone":            provenance.Of("CoreDNS v1.12", "coredns/coredns plugin/kubernetes/kubernetes.go (ready endpoints only unless publishNotReadyAddresses)"),
		"dns.record.headless":     provenance.Of("CoreDNS v1.12", "coredns/coredns plugin/kubernetes/kubernetes.go (findServices: headless endpoints)", "kubernetes/dns docs/specification.md (2.4.1 headless Services)"),
	}
	for kind, src := range drainSources() {
		all[kind] = src
	}
	return all
}

// liveSources are the sources of the live trace's own explanations
// (catalogue_live.go); a live kind that shows a simulated kind's
// explanation (liveExplainedAs) has that kind's source.
func liveSources() map[string]provenance.Source {
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	return map[string]provenance.Source{
		"live.namespace": k("pkg/controller/namespace/deletion/namespaced_resources_deleter.go (deleting a namespace deletes its contents)"),
		"live.validate":  k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (fieldValidation=Strict)", "staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (--validate=strict)"),
		"live.apply":     k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (application/apply-patch+yaml)", "staging/src/k8s.io/apimachinery/pkg/util/managedfields (managedFields)", "KEP-555 (server-side apply)"),
		"live.dryrun":    k("staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (dryRun=All)", "staging/src/k8s.io/api/admissionregistration/v1/types.go (sideEffects)"),
		"live.waiting":   k("pkg/kubelet/images/image_manager.go (ErrImagePull, ImagePullBackOff)", "pkg/kubelet/kuberuntime/kuberuntime_container.go (CreateContainerConfigError)", "pkg/kubelet/kuberuntime/kuberuntime_manager.go (CrashLoopBackOff)"),
	}
}

// Provenance is the trace catalogue's explanations (English) and their
// sources, for the listing in docs/PROVENANCE.md: the simulated trace's
// and the live trace's (trace apply --kubeconfig).
func Provenance() provenance.Catalogue {
	sim := simEN()
	texts := map[string]string{}
	src := sources()
	for kind, e := range merged(simEN(), withLiveExplanations(liveEN(), sim)) {
		if e.Explain != "" {
			texts[kind] = e.Explain
		}
	}
	for kind, s := range liveSources() {
		src[kind] = s
	}
	for live, as := range liveExplainedAs {
		if s, ok := src[as]; ok {
			src[live] = s
		}
	}
	return provenance.Catalogue{Name: "trace: the explanation of each step kind", Package: "internal/trace",
		Texts: texts, Sources: src}
}
