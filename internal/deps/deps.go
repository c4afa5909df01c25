//go:build tools

// Package deps pins the modules the project is growing into, so that
// `go mod tidy` keeps them while the code that uses them is being written.
package deps

import (
	_ "github.com/AlecAivazis/survey/v2"
	_ "github.com/Netflix/go-expect"
	_ "github.com/creack/pty"
	_ "github.com/fatih/color"
	_ "github.com/hinshun/vt10x"
	_ "github.com/kljensen/snowball"
	_ "github.com/open-spaced-repetition/go-fsrs/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "go.etcd.io/raft/v3"
	_ "golang.org/x/term"
	_ "google.golang.org/grpc"
	_ "google.golang.org/grpc/health"
	_ "google.golang.org/grpc/keepalive"
	_ "google.golang.org/grpc/resolver/manual"
	_ "gopkg.in/yaml.v3"
	_ "k8s.io/api/apps/v1"
	_ "k8s.io/api/batch/v1"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/api/discovery/v1"
	_ "k8s.io/api/networking/v1"
	_ "k8s.io/api/policy/v1"
	_ "k8s.io/api/rbac/v1"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	_ "k8s.io/apimachinery/pkg/runtime"
	_ "k8s.io/apimachinery/pkg/util/validation"
	_ "sigs.k8s.io/yaml"
)
