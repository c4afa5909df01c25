#!/usr/bin/env bash
# Builds the real control-plane binaries the recorder runs, once per version,
# into a cache outside the repository:
#   ${K8SEXPLAIN_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/k8sexplain-oracle}/<k8s version>/bin/
# Everything comes from the Go module proxy: three throwaway modules are
# written next to bin/ (k8s, etcd, kwok), because kwok does not build inside
# the kubernetes module and etcd's server wants its own dependency set.
#
# Usage: oracle/build.sh [k8s-version]   (default: the k8s.io/api version in go.mod, v0.X.Y -> v1.X.Y)
#        ORACLE_ONLY="hashcheck" oracle/build.sh   builds only the named binaries
# Cold: 15-40 minutes on 2 idle cores, over an hour on a loaded shared machine
# (README has the measured times). Warm: seconds. No -trimpath:
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
cache=${K8SEXPLAIN_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/k8sexplain-oracle}/$ver
bin=$cache/bin
mkdir -p "$bin" "$cache/k8s" "$cache/etcd" "$cache/kwok"
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
)
GO
	go mod tidy -e >/dev/null 2>&1 || true
	go get k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
		k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl
}
for c in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
	if want "$c"; then
		k8s_module
		log "building $c $ver"
		nice -n 19 go build -p 1 -o "$bin/$c.tmp" "k8s.io/kubernetes/cmd/$c"
		mv "$bin/$c.tmp" "$bin/$c"
	fi
done

# --- hashcheck: upstream's own ComputeHash over the template as stored (hashcheck/main.go)
if want hashcheck || { [ -z "${ORACLE_ONLY:-}" ] && [ "$here/hashcheck/main.go" -nt "$bin/hashcheck" ]; }; then
	k8s_module
	mkdir -p "$cache/k8s/hashcheck"
	cp "$here/hashcheck/main.go" "$cache/k8s/hashcheck/main.go"
	log "building hashcheck"
	(cd "$cache/k8s" && nice -n 19 go build -p 1 -tags oraclebuild -o "$bin/hashcheck.tmp" ./hashcheck)
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
	nice -n 19 go build -p 1 -o "$bin/etcd.tmp" go.etcd.io/etcd/server/v3
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
	nice -n 19 go build -p 1 -o "$bin/kwok.tmp" sigs.k8s.io/kwok/cmd/kwok
	mv "$bin/kwok.tmp" "$bin/kwok"
fi
log "binaries in $bin"
ls -la "$bin"
