package task

import (
	"embed"
	"io/fs"
	"sync"
)

//go:embed tasks/*.yaml
var files embed.FS

var registry = sync.OnceValues(func() ([]*Task, error) {
	sub, err := fs.Sub(files, "tasks")
	if err != nil {
		return nil, err
	}
	return load(sub)
})

// All returns every task, in id order.
func All() ([]*Task, error) { return registry() }

// Get returns the task with id, or nil.
func Get(id string) (*Task, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	for _, t := range all {
		if t.ID == id {
			return t, nil
		}
	}
	return nil, nil
}

// IDs are the tasks' ids, in order (for completion and errors).
func IDs() []string {
	all, _ := All()
	ids := make([]string, len(all))
	for i, t := range all {
		ids[i] = t.ID
	}
	return ids
}
