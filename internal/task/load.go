package task

import (
	"fmt"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/story"
)

// curve reads the action's load curve and its step (1m by default).
func (a *Action) curve() (story.LoadCurve, error) {
	pcts, err := story.ParseLoadCurve(a.Load)
	if err != nil {
		return story.LoadCurve{}, err
	}
	every := time.Minute
	if a.Every != "" {
		if every, err = time.ParseDuration(a.Every); err != nil || every <= 0 {
			return story.LoadCurve{}, fmt.Errorf("every %q: want a positive duration such as 1m", a.Every)
		}
	}
	return story.LoadCurve{Percent: pcts, Every: every}, nil
}

// validateLoad checks a load action: a curve that parses, a target, and a
// run that fits the action's window.
func (a *Action) validateLoad() error {
	if a.Load == "" {
		return nil
	}
	if a.Target == "" {
		return fmt.Errorf("action: load wants a target Deployment")
	}
	c, err := a.curve()
	if err != nil {
		return fmt.Errorf("action: %v", err)
	}
	if h := time.Duration(len(c.Percent)) * c.Every; h > actionFor {
		return fmt.Errorf("action: the load curve lasts %s, longer than the %s the action may run", h, actionFor)
	}
	return nil
}

// applyLoad puts the curve on the target Deployment's pods.
func applyLoad(c *story.Scene, a *Action, ns string) *Finding {
	dep := c.Deployment(ns, a.Target)
	if dep == nil {
		return found("no Deployment {1} to load", a.Target)
	}
	curve, _ := a.curve() // validated with the task
	if err := c.ApplyLoad(dep, curve); err != nil {
		return found("load: {1}", err.Error())
	}
	return nil
}
