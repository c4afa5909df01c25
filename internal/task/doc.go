// Package task holds the hands-on tasks of `k8sexplain task`: a starting
// cluster (nodes, objects, sometimes a failure to come), a goal in words
// and as typed conditions, a reference solution and at least one plausible
// wrong one. Check applies the learner's manifests to the simulated cluster
// (internal/sim) from the task's starting state, runs what the task makes
// happen next (a rollout, a hung container), and grades the state the
// cluster ends in, and for conditions about a process the changes it went
// through, on the k8s.io/api objects the simulated API server stores —
// never on text. A failed condition comes with the moment it failed and the
// trace steps that explain it (the scheduler's FailedScheduling event, the
// quota refusal, …).
//
// Tasks are data: internal/task/tasks/*.yaml, embedded, one task per file
// (the schema is Task). TestEveryTask runs every reference solution (it
// must pass) and every wrong solution (it must fail the condition it
// names).
//
// What it leaves out: the learner's manifests are applied once, as `kubectl
// apply` creates objects; editing the starting objects in place is not
// modelled, so a task gives the learner objects of their own to write, and
// refuses a manifest that redefines a starting object or touches what the
// task forbids.
package task
