package manifest

import "k8s.io/apimachinery/pkg/runtime"

func Default(obj runtime.Object) []string { return nil }
func Validate(obj runtime.Object) error   { return nil }
