#!/usr/bin/env bash
# Builds the real control-plane and node binaries the recorder runs, once per
# version, into a cache outside the repository:
#   ${K8SEXPLAIN_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/k8sexplain-oracle}/<k8s version>/bin/
# Everything comes from the Go module proxy: throwaway modules are written next
# to bin/ (k8s, etcd, kwok, containerd, runc, registry), because kwok does not
# build inside the kubernetes module and etcd's server, containerd, runc and
# distribution each want their own dependency set. The node (issue 24) also
# needs Debian's libseccomp-dev (runc is built with cgo and the seccomp tag),
# containernetworking-plugins (bridge, host-local, loopback, portmap in
# /usr/lib/cni), iptables and conntrack; as root the script installs them.
#
# Usage: oracle/build.sh [k8s-version]   (default: the k8s.io/api version in go.mod, v0.X.Y -> v1.X.Y)
#        ORACLE_ONLY="hashcheck" oracle/build.sh   builds only the named binaries
# ORACLE_BUILD_P=N sets go build -p (default 1); ORACLE_NICE=N its nice level (default 19).
# Cold: 15-40 minutes on 2 idle cores, over an hour on a loaded shared machine
# (README has the measured times; containerd alone took 84 minutes at nice 19
# under load average 25-50). Warm: seconds. No -trimpath:
# packages the main module shares (std, k8s.io/api, apimachinery) come from the
# build cache it already filled.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
api=$(awk '$1=="k8s.io/api"{print $2}' "$root/go.mod")
ver=${1:-v1.${api#v0.}}
staging_ver=v0.${ver#v1.}
etcd_ver=${ETCD_VERSION:-v3.6.16}
kwok_ver=${KWOK_VERSION:-v0.8.0}
# the runtime the simulated nodes run (internal/k8sversion ContainerdVersion, RuncVersion)
containerd_ver=${CONTAINERD_VERSION:-v2.2.0}
runc_ver=${RUNC_VERSION:-v1.3.3}
registry_ver=${REGISTRY_VERSION:-v3.0.0}
cache=${K8SEXPLAIN_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/k8sexplain-oracle}/$ver
bin=$cache/bin
mkdir -p "$bin" "$cache/k8s" "$cache/etcd" "$cache/kwok" "$cache/containerd" "$cache/runc" "$cache/registry"
export GOFLAGS=-buildvcs=false GOWORK=off
log() { echo "$(date -u +%H:%M:%S) $*"; }

want() { # name -> true if the binary is missing (and, with ORACLE_ONLY, named there)
	if [ -n "${ORACLE_ONLY:-}" ] && [[ " $ORACLE_ONLY " != *" $1 "* ]]; then
		return 1
	fi
	[ ! -x "$bin/$1" ]
}

# --- kubernetes: kube-apiserver, kube-controller-manager, kube-scheduler, kubectl
k8s_module() {
	cd "$cache/k8s"
	[ -f go.mod ] && return
	go mod init oracle-build/k8s >/dev/null 2>&1
	go mod edit -require=k8s.io/kubernetes@"$ver"
	# every k8s.io/<staging> module that kubernetes' own go.mod points at ./staging
	modfile=$(go mod download -json k8s.io/kubernetes@"$ver" | awk -F'"' '$2=="GoMod"{print $4}')
	for m in $(awk '$2=="=>" && $3 ~ /^\.\/staging\// {print $1}' "$modfile"); do
		go mod edit -replace="$m=$m@$staging_ver"
	done
	cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "k8s.io/kubernetes/cmd/kubelet"
	_ "k8s.io/kubernetes/cmd/kube-proxy"
)
GO
	go mod tidy -e >/dev/null 2>&1 || true
	go get k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
		k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl \
		k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy
}
for c in ${ORACLE_K8S_ORDER:-kube-apiserver kube-controller-manager kube-scheduler kubectl kubelet kube-proxy}; do
	if want "$c"; then
		k8s_module
		log "building $c $ver"
		nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -o "$bin/$c.tmp" "k8s.io/kubernetes/cmd/$c"
		mv "$bin/$c.tmp" "$bin/$c"
	fi
done

# --- hashcheck: upstream's own ComputeHash over the template as stored (hashcheck/main.go)
if want hashcheck || { [ -z "${ORACLE_ONLY:-}" ] && [ "$here/hashcheck/main.go" -nt "$bin/hashcheck" ]; }; then
	k8s_module
	mkdir -p "$cache/k8s/hashcheck"
	cp "$here/hashcheck/main.go" "$cache/k8s/hashcheck/main.go"
	log "building hashcheck"
	(cd "$cache/k8s" && nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -tags oraclebuild -o "$bin/hashcheck.tmp" ./hashcheck)
	mv "$bin/hashcheck.tmp" "$bin/hashcheck"
fi

# --- etcd: the server's main package is the module root of go.etcd.io/etcd/server/v3
if want etcd; then
	cd "$cache/etcd"
	if [ ! -f go.mod ]; then
		go mod init oracle-build/etcd >/dev/null 2>&1
		go get go.etcd.io/etcd/server/v3@"$etcd_ver"
	fi
	log "building etcd $etcd_ver"
	nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -o "$bin/etcd.tmp" go.etcd.io/etcd/server/v3
	mv "$bin/etcd.tmp" "$bin/etcd"
fi

# --- kwok: fakes kubelets; its own module
if want kwok; then
	cd "$cache/kwok"
	if [ ! -f go.mod ]; then
		go mod init oracle-build/kwok >/dev/null 2>&1
		go get sigs.k8s.io/kwok/cmd/kwok@"$kwok_ver"
	fi
	log "building kwok $kwok_ver"
	nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -o "$bin/kwok.tmp" sigs.k8s.io/kwok/cmd/kwok
	mv "$bin/kwok.tmp" "$bin/kwok"
fi
# --- the real node (issue 24): containerd + ctr + runc shim, runc, registry
own_module() { # dir version package... -> a throwaway module requiring the packages' module@version
	local dir=$1 v=$2
	shift 2
	cd "$cache/$dir"
	if [ ! -f go.sum ]; then
		[ -f go.mod ] || go mod init "oracle-build/$dir" >/dev/null 2>&1
		for p in "$@"; do go get "$p@$v"; done
	fi
}
for c in containerd ctr containerd-shim-runc-v2; do
	if want "$c"; then
		own_module containerd "$containerd_ver" github.com/containerd/containerd/v2/cmd/containerd \
			github.com/containerd/containerd/v2/cmd/ctr github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2
		log "building $c $containerd_ver"
		# no_btrfs: the btrfs snapshotter needs btrfs headers; the node uses overlayfs or native
		cgo=1
		[ "$c" = containerd-shim-runc-v2 ] && cgo=0
		CGO_ENABLED=$cgo nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -tags no_btrfs \
			-ldflags "-X github.com/containerd/containerd/v2/version.Version=$containerd_ver" \
			-o "$bin/$c.tmp" "github.com/containerd/containerd/v2/cmd/$c"
		mv "$bin/$c.tmp" "$bin/$c"
	fi
done
node_debs() {
	local missing=""
	[ -f /usr/include/seccomp.h ] || missing="$missing libseccomp-dev"
	[ -x /usr/lib/cni/bridge ] || missing="$missing containernetworking-plugins"
	command -v iptables-save >/dev/null || missing="$missing iptables"
	command -v conntrack >/dev/null || missing="$missing conntrack"
	[ -x /bin/busybox ] || missing="$missing busybox-static"
	[ -z "$missing" ] && return
	if [ "$(id -u)" = 0 ]; then
		log "installing Debian packages:$missing"
		DEBIAN_FRONTEND=noninteractive apt-get install -y $missing >/dev/null
	else
		echo "build.sh: the node needs Debian packages:$missing (apt-get install as root)" >&2
		exit 1
	fi
}
if want runc; then
	node_debs
	own_module runc "$runc_ver" github.com/opencontainers/runc
	log "building runc $runc_ver"
	CGO_ENABLED=1 nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -tags seccomp \
		-ldflags "-X main.version=${runc_ver#v}" -o "$bin/runc.tmp" github.com/opencontainers/runc
	mv "$bin/runc.tmp" "$bin/runc"
fi
if want registry; then
	own_module registry "$registry_ver" github.com/distribution/distribution/v3/cmd/registry
	log "building registry $registry_ver"
	nice -n "${ORACLE_NICE:-19}" go build -p "${ORACLE_BUILD_P:-1}" -o "$bin/registry.tmp" github.com/distribution/distribution/v3/cmd/registry
	mv "$bin/registry.tmp" "$bin/registry"
fi
if [ -z "${ORACLE_ONLY:-}" ] || [[ " $ORACLE_ONLY " == *" kubelet "* ]]; then
	node_debs # the node's Debian packages, also when its binaries are cached
fi
log "binaries in $bin"
ls -la "$bin"
