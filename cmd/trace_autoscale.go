package cmd

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/spf13/cobra"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

// TraceAutoscaleOptions are the inputs of `trace autoscale`.
type TraceAutoscaleOptions struct {
	StoryOptions
	// Min, Max and TargetCPU build the HPA `kubectl autoscale` would
	// create when the manifests hold none.
	Min, Max, TargetCPU int
	// CPU is the load curve ("40%,120%,120%,20%"), Every the time each
	// value holds; LoadFile holds the curve instead (one value a line or
	// comma-separated, # comments).
	CPU      string
	Every    time.Duration
	LoadFile string
	// Deployment picks the target when the manifest has several.
	Deployment string
	hpaFlags   bool // --min, --max or --target-cpu given
}

// defaultLoad rises past the target, holds, and falls below it: scale-up
// by policy, then the 300 s scale-down window.
const defaultLoad = "40%,120%,120%,20%"

// NewCmdTraceAutoscale is `trace autoscale`; runF, when not nil, gets the options instead of traceAutoscaleRun.
func NewCmdTraceAutoscale(f *Factory, runF func(*TraceAutoscaleOptions) error) *cobra.Command {
	o := &TraceAutoscaleOptions{}
	c := &cobra.Command{
		Use:   "autoscale [FILE...]",
		Short: "A HorizontalPodAutoscaler under a load curve: metrics, the replica formula, windows and policies, each sync",
		Long: `Applies the manifests, waits until every pod is Ready, creates the HorizontalPodAutoscaler
(autoscaling/v2) as ` + "`kubectl autoscale deployment NAME --min --max --cpu`" + ` would — unless the manifests hold
one — and puts a CPU load curve on the Deployment's pods. metrics-server scrapes every 15 s; the HPA
controller syncs every 15 s (--horizontal-pod-autoscaler-sync-period): it reads the target's scale
subresource and the pods' CPU from the resource metrics API, computes
desiredReplicas = ceil(currentReplicas × currentUtilization / target) with the 0.1 tolerance and the
rules for unready and missing pods, applies the v2 behavior (scale-up: Max of 100 % or 4 pods per 15 s;
scale-down: the 300 s stabilization window, then 100 % per 15 s) and min/max, and PUTs the scale. The
Deployment scales its ReplicaSet without a rollout. A table lists every sync.

The load is a percentage of the starting replicas' summed CPU requests, spread evenly over the Ready
pods (the Service sends them the traffic) and capped at each pod's CPU limit.`,
		Example: `  k8sexplain trace autoscale
  k8sexplain trace autoscale -f examples/app.yaml --min 2 --max 8 --target-cpu 60 --cpu 20%,90%,150%,40% --every 2m
  k8sexplain trace autoscale examples/app.yaml examples/hpa.yaml --load-file examples/load-spike.txt --format markdown`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Files = append(o.Files, args...)
			fl := cmd.Flags()
			o.hpaFlags = fl.Changed("min") || fl.Changed("max") || fl.Changed("target-cpu")
			if fl.Changed("cpu") && o.LoadFile != "" {
				return exitcode.Usagef("--cpu and --load-file both give the load curve: use one (see %s --help)", cmd.CommandPath())
			}
			return runE(f, o, runF, traceAutoscaleRun)(cmd, nil)
		},
	}
	o.bind(c)
	c.Flags().IntVar(&o.Min, "min", 1, "minReplicas of the HPA built from the flags (the API's default is 1)")
	c.Flags().IntVar(&o.Max, "max", 10, "maxReplicas of the HPA built from the flags")
	c.Flags().IntVar(&o.TargetCPU, "target-cpu", 50, "target average CPU utilization, percent of request")
	c.Flags().StringVar(&o.CPU, "cpu", defaultLoad, "the load curve: CPU demand as percentages of the starting replicas' requests")
	c.Flags().DurationVar(&o.Every, "every", time.Minute, "how long each value of the load curve holds")
	c.Flags().StringVar(&o.LoadFile, "load-file", "", "read the load curve from a file (percentages, one a line or comma-separated)")
	c.Flags().StringVar(&o.Deployment, "deployment", "", "the Deployment to autoscale when the manifest has several")
	return c
}

func (o *TraceAutoscaleOptions) curve() (story.LoadCurve, error) {
	src, from := o.CPU, "--cpu"
	if o.LoadFile != "" {
		data, err := os.ReadFile(o.LoadFile)
		if err != nil {
			return story.LoadCurve{}, exitcode.Inputf("--load-file: %v", err)
		}
		var vals []string
		for _, line := range strings.Split(string(data), "\n") {
			line, _, _ = strings.Cut(line, "#")
			for _, v := range strings.Split(line, ",") {
				if v = strings.TrimSpace(v); v != "" {
					vals = append(vals, v)
				}
			}
		}
		src, from = strings.Join(vals, ","), o.LoadFile
	}
	pct, err := story.ParseLoadCurve(src)
	if err != nil {
		return story.LoadCurve{}, exitcode.Inputf("%s: %v", from, err)
	}
	if len(pct) > 100 {
		return story.LoadCurve{}, exitcode.Inputf("%s: %d values; at most 100", from, len(pct))
	}
	if o.Every < 15*time.Second || o.Every > time.Hour {
		return story.LoadCurve{}, exitcode.Inputf("--every %s: want 15s to 1h (the HPA syncs every 15s)", o.Every)
	}
	return story.LoadCurve{Percent: pct, Every: o.Every}, nil
}

func (o *TraceAutoscaleOptions) checkHPAFlags() error {
	switch {
	case o.Min < 1:
		return exitcode.Inputf("--min %d: must be at least 1 (minReplicas 0 needs the HPAScaleToZero feature gate)", o.Min)
	case o.Max < o.Min:
		return exitcode.Inputf("--max %d: must be at least --min %d", o.Max, o.Min)
	case o.Max > 1000:
		return exitcode.Inputf("--max %d: at most 1000 in this simulator", o.Max)
	case o.TargetCPU < 1 || o.TargetCPU > 1000:
		return exitcode.Inputf("--target-cpu %d: want 1 to 1000 (percent of request)", o.TargetCPU)
	}
	return nil
}

func traceAutoscaleRun(o *TraceAutoscaleOptions) error {
	curve, err := o.curve()
	if err != nil {
		return err
	}
	if err := o.checkHPAFlags(); err != nil {
		return err
	}
	cl, source, err := o.scene(sim.Config{Autoscaling: true})
	if err != nil {
		return err
	}
	var hpa *autoscalingv2.HorizontalPodAutoscaler
	if hs := cl.HPAs(); len(hs) > 0 {
		if o.hpaFlags {
			return exitcode.Inputf("%s holds HorizontalPodAutoscaler %s: --min, --max and --target-cpu build one only when the manifests have none", source, hs[0].Name)
		}
		hpa = hs[0]
	}
	var command string
	if hpa == nil {
		dep, err := pickDeployment(cl.Cluster, o.Deployment)
		if err != nil {
			return err
		}
		hpa = story.NewHPA(dep, int32(o.Min), int32(o.Max), int32(o.TargetCPU))
		cl.Autoscale(hpa)
	} else if hpa.Spec.ScaleTargetRef.Kind != "Deployment" {
		return exitcode.Inputf("HorizontalPodAutoscaler %s scales a %s: the autoscale story drives a Deployment", hpa.Name, hpa.Spec.ScaleTargetRef.Kind)
	}
	dep := cl.Deployment(hpa.Namespace, hpa.Spec.ScaleTargetRef.Name)
	if dep == nil {
		return exitcode.Inputf("HorizontalPodAutoscaler %s targets deployment %q, which the manifests do not create", hpa.Name, hpa.Spec.ScaleTargetRef.Name)
	}
	if err := cl.ApplyLoad(dep, curve); err != nil {
		return exitcode.AsInput(err)
	}
	cl.RunThrough(curve.Horizon())
	command = "k8sexplain trace autoscale " + source
	if o.hpaFlags {
		command += fmt.Sprintf(" --min %d --max %d --target-cpu %d", o.Min, o.Max, o.TargetCPU)
	}
	if o.LoadFile != "" {
		command += " --load-file " + o.LoadFile
	} else {
		command += " --cpu " + o.CPU
	}
	command += " --every " + o.Every.String()
	tr := cl.Story(command, "autoscale")
	tr.Tables = append(tr.Tables, cl.AutoscaleTable(hpa.Namespace, hpa.Name))
	return o.renderTrace(tr)
}
