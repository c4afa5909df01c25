#!/usr/bin/env bash
# Runs the integration test of `trace apply --kubeconfig` (internal/live
# TestLiveCluster) outside CI, where it may take minutes:
#
#   oracle/live-test.sh                 the oracle's real control plane (etcd, kube-apiserver,
#                                       kube-controller-manager, kube-scheduler, kwok) from the
#                                       binaries oracle/build.sh cached; brought up and stopped by the test
#   K8SEXPLAIN_LIVE_KUBECONFIG=~/.kube/config oracle/live-test.sh
#                                       any cluster instead (kind, minikube, k3d): its current context
#
# Without either the test skips and says why. Extra arguments go to go test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
exec go test -count=1 -run '^TestLiveCluster$' -v -timeout 20m ./internal/live "$@"
