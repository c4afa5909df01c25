// Package schedconfig reads a KubeSchedulerConfiguration file (apiVersion
// kubescheduler.config.k8s.io/v1) into the simulated scheduler's profile:
// the plugin sets of the first profile with their weights, and the args of
// NodeResourcesFit (scoring strategy LeastAllocated, MostAllocated or
// RequestedToCapacityRatio), InterPodAffinity and
// NodeResourcesBalancedAllocation.
//
// Decoding is strict, like kube-scheduler's: unknown and duplicate fields,
// values of the wrong type, an unknown plugin or strategy and args out of
// range are errors at file:line, worded as upstream's validation words them
// where it has a message. Fields that do not change placement
// (leaderElection, clientConnection, parallelism, profiling, backoff) are
// accepted and ignored. Not supported, with a clear error: more than one
// profile, extenders, and plugins at extension points the simulator does
// not run.
package schedconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"gopkg.in/yaml.v3"
	corev1 "k8s.io/api/core/v1"
)

// APIVersion and Kind are the only ones accepted.
const (
	APIVersion = "kubescheduler.config.k8s.io/v1"
	Kind       = "KubeSchedulerConfiguration"
)

// MaxSize bounds the file.
const MaxSize = 1 << 20

// kubeSchedulerConfiguration mirrors config/v1 KubeSchedulerConfiguration
// (k8s.io/kube-scheduler/config/v1/types.go).
type kubeSchedulerConfiguration struct {
	APIVersion                string    `json:"apiVersion"`
	Kind                      string    `json:"kind"`
	Parallelism               *int32    `json:"parallelism"`
	LeaderElection            ignored   `json:"leaderElection"`
	ClientConnection          ignored   `json:"clientConnection"`
	EnableProfiling           *bool     `json:"enableProfiling"`
	EnableContentionProfiling *bool     `json:"enableContentionProfiling"`
	PercentageOfNodesToScore  *int32    `json:"percentageOfNodesToScore"`
	PodInitialBackoffSeconds  *int64    `json:"podInitialBackoffSeconds"`
	PodMaxBackoffSeconds      *int64    `json:"podMaxBackoffSeconds"`
	Profiles                  []profile `json:"profiles"`
	Extenders                 []ignored `json:"extenders"`
	DelayCacheUntilActive     bool      `json:"delayCacheUntilActive"`
}

type profile struct {
	SchedulerName            *string        `json:"schedulerName"`
	PercentageOfNodesToScore *int32         `json:"percentageOfNodesToScore"`
	Plugins                  *plugins       `json:"plugins"`
	PluginConfig             []pluginConfig `json:"pluginConfig"`
}

type plugins struct {
	PreEnqueue         pluginSet `json:"preEnqueue"`
	QueueSort          pluginSet `json:"queueSort"`
	PreFilter          pluginSet `json:"preFilter"`
	Filter             pluginSet `json:"filter"`
	PostFilter         pluginSet `json:"postFilter"`
	PreScore           pluginSet `json:"preScore"`
	Score              pluginSet `json:"score"`
	Reserve            pluginSet `json:"reserve"`
	Permit             pluginSet `json:"permit"`
	PreBind            pluginSet `json:"preBind"`
	Bind               pluginSet `json:"bind"`
	PostBind           pluginSet `json:"postBind"`
	MultiPoint         pluginSet `json:"multiPoint"`
	PlacementGenerate  pluginSet `json:"placementGenerate"`
	PlacementScore     pluginSet `json:"placementScore"`
	PodGroupPostFilter pluginSet `json:"podGroupPostFilter"`
}

type pluginSet struct {
	Enabled  []plugin `json:"enabled"`
	Disabled []plugin `json:"disabled"`
}

type plugin struct {
	Name   string `json:"name"`
	Weight *int32 `json:"weight"`
}

type pluginConfig struct {
	Name string     `json:"name"`
	Args *yaml.Node `json:"args"`
}

// Config is a decoded configuration.
type Config struct {
	File    string
	Profile scheduler.Profile
}

// Load reads and decodes the file at path.
func Load(path string) (*Config, error) {
	openErr := func(err error) error {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("--scheduler-config %s: %v", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openErr(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, openErr(err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("--scheduler-config %s: larger than %d bytes", path, MaxSize)
	}
	return Parse(path, data)
}

// Parse decodes data, naming file in errors ("file:line: message").
func Parse(file string, data []byte) (*Config, error) {
	c, err := parse(data)
	if err != nil {
		var pe *posError
		if errors.As(err, &pe) && pe.line > 0 {
			return nil, fmt.Errorf("%s:%d: %s", file, pe.line, pe.msg)
		}
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	c.File = file
	return c, nil
}

var yamlLine = strings.NewReplacer("yaml: ", "")

// parse is kube-scheduler's loadConfigFromFile and the validation of its
// one profile: the file decoded strictly, the profile's spec checked and
// built, and the errors the registry reports put back at their lines.
func parse(data []byte) (*Config, error) {
	d, cfg, err := decodeFile(data)
	if err != nil {
		return nil, err
	}
	spec, argsAt, err := d.profileSpec(cfg)
	if err != nil {
		return nil, err
	}
	prof, err := scheduler.InTree().NewProfile(spec)
	if err != nil {
		return nil, d.profileError(err, argsAt)
	}
	return &Config{Profile: prof}, nil
}

// decodeFile is the codec's decode of the one YAML document: its kind and
// version first, then every field strictly.
func decodeFile(data []byte) (*decoder, *kubeSchedulerConfiguration, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, nil, errors.New("empty file: want a KubeSchedulerConfiguration")
		}
		return nil, nil, syntaxError(err)
	}
	if err := checkKind(&doc); err != nil {
		return nil, nil, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); err != io.EOF {
		if err != nil {
			return nil, nil, syntaxError(err)
		}
		return nil, nil, &posError{line: more.Line, msg: "more than one YAML document: want one KubeSchedulerConfiguration"}
	}
	d := &decoder{lines: map[string]int{}}
	var cfg kubeSchedulerConfiguration
	if err := d.decode(&doc, reflect.ValueOf(&cfg).Elem(), ""); err != nil {
		return nil, nil, err
	}
	return d, &cfg, nil
}

// at is the line of path, or of its nearest parent the file names.
func (d *decoder) at(path string) int {
	for p := path; p != ""; p = parent(p) {
		if l, ok := d.lines[p]; ok {
			return l
		}
	}
	return 1
}

// fail is an error at the line of path.
func (d *decoder) fail(path, format string, args ...any) error {
	return &posError{line: d.at(path), msg: fmt.Sprintf(format, args...)}
}

// profilePath is the one profile's field path.
const profilePath = "profiles[0]"

// profileSpec is ValidateKubeSchedulerConfiguration for what the
// simulator runs, one profile: the top-level fields, the profile's name,
// percentage and plugin sets, and its pluginConfig args decoded. argsAt
// is the pluginConfig index of each plugin's args.
func (d *decoder) profileSpec(cfg *kubeSchedulerConfiguration) (scheduler.ProfileSpec, map[string]int, error) {
	spec := scheduler.ProfileSpec{SchedulerName: corev1.DefaultSchedulerName, Args: map[string]any{}}
	if len(cfg.Extenders) > 0 {
		return spec, nil, d.fail("extenders", "extenders: not supported by the simulator (it has no HTTP extenders)")
	}
	if len(cfg.Profiles) > 1 {
		return spec, nil, d.fail("profiles[1]", "profiles: %d profiles; the simulator runs one scheduler with one profile: keep one (pods pick a profile by spec.schedulerName, which this simulator does not model)", len(cfg.Profiles))
	}
	if err := validPercentage("percentageOfNodesToScore", cfg.PercentageOfNodesToScore, d.fail); err != nil {
		return spec, nil, err
	}
	var p profile
	if len(cfg.Profiles) == 1 {
		p = cfg.Profiles[0]
	}
	const pp = profilePath
	if p.SchedulerName != nil {
		spec.SchedulerName = *p.SchedulerName
		if spec.SchedulerName == "" {
			return spec, nil, d.fail(pp+".schedulerName", "%s.schedulerName: Required value", pp)
		}
	}
	// A profile's percentage wins over the global one (schedule_one.go).
	if cfg.PercentageOfNodesToScore != nil {
		spec.PercentageOfNodesToScore = *cfg.PercentageOfNodesToScore
	}
	if err := validPercentage(pp+".percentageOfNodesToScore", p.PercentageOfNodesToScore, d.fail); err != nil {
		return spec, nil, err
	}
	if p.PercentageOfNodesToScore != nil {
		spec.PercentageOfNodesToScore = *p.PercentageOfNodesToScore
	}
	if p.Plugins != nil {
		if err := pluginSets(p.Plugins, &spec, d.fail); err != nil {
			return spec, nil, err
		}
	}
	argsAt, err := d.pluginConfig(p.PluginConfig, &spec)
	return spec, argsAt, err
}

// pluginConfig decodes each pluginConfig entry's args into the type its
// plugin registers (validatePluginConfig: one entry per plugin, a plugin
// that exists and takes args).
func (d *decoder) pluginConfig(pcs []pluginConfig, spec *scheduler.ProfileSpec) (map[string]int, error) {
	reg := scheduler.InTree()
	argsAt := map[string]int{}
	for i, pc := range pcs {
		path := fmt.Sprintf("%s.pluginConfig[%d]", profilePath, i)
		if _, dup := argsAt[pc.Name]; dup {
			return nil, d.fail(path, "%s: Duplicate value: %q", path, pc.Name)
		}
		argsAt[pc.Name] = i
		r, ok := reg[pc.Name]
		switch {
		case !ok && slices.Contains(scheduler.NotModelled, pc.Name):
			return nil, d.fail(path+".name", "%s: args of %s are not supported: the simulator does not model that plugin", path, pc.Name)
		case !ok:
			return nil, d.fail(path+".name", "%s: plugin %q does not exist (known: %s)", path, pc.Name, strings.Join(reg.Names(), ", "))
		case r.NewArgs == nil:
			return nil, d.fail(path+".name", "%s: args of %s are not supported by the simulator", path, pc.Name)
		}
		args := r.NewArgs()
		if pc.Args != nil {
			if err := decodeArgs(d, pc.Args, args, path+".args", pc.Name); err != nil {
				return nil, err
			}
		}
		spec.Args[pc.Name] = args
	}
	return argsAt, nil
}

// profileError puts an error of the registry's NewProfile at the line of
// the field it names: a plugin's args, or a field of the profile.
func (d *decoder) profileError(err error, argsAt map[string]int) error {
	const pp = profilePath
	var ce *scheduler.ConfigError
	var ae *scheduler.ArgsError
	switch {
	case errors.As(err, &ae):
		path := fmt.Sprintf("%s.pluginConfig[%d].args", pp, argsAt[ae.Plugin])
		var fe scheduler.FieldErrors
		if errors.As(ae.Err, &fe) && len(fe) > 0 {
			msg := path + "." + fe[0].Error()
			if len(fe) > 1 {
				msg += fmt.Sprintf(" (and %d more)", len(fe)-1)
			}
			return d.fail(path+"."+fe[0].Field, "%s", msg)
		}
		return d.fail(path, "%s: %v", path, ae.Err)
	case errors.As(err, &ce) && ce.Field != "":
		return d.fail(pp+"."+ce.Field, "%s.%s", pp, ce.Error())
	case errors.As(err, &ce):
		return d.fail(pp, "%s: %s", pp, ce.Msg)
	}
	return err
}

// checkKind reads apiVersion and kind before the strict decoding, so that
// a manifest of another kind is named as such rather than for its first
// unknown field. The serializer checks kind, then the version
// (apimachinery runtime).
func checkKind(doc *yaml.Node) error {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return &posError{line: n.Line, msg: fmt.Sprintf("want a KubeSchedulerConfiguration object (apiVersion: %s, kind: %s)", APIVersion, Kind)}
	}
	var kind, version string
	line := n.Line
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "kind":
			kind, line = v.Value, k.Line
		case "apiVersion":
			version = v.Value
		}
	}
	switch {
	case kind == "":
		return &posError{line: n.Line, msg: "Object 'Kind' is missing: want kind: " + Kind}
	case version == "":
		return &posError{line: n.Line, msg: "Object 'apiVersion' is missing: want apiVersion: " + APIVersion}
	case kind != Kind || version != APIVersion:
		return &posError{line: line, msg: fmt.Sprintf("no kind %s is registered for version %s: want apiVersion: %s, kind: %s", quoteShort(kind), quoteShort(version), APIVersion, Kind)}
	}
	return nil
}

// decodeArgs decodes a plugin's args, which may carry apiVersion and kind
// (kind: <Plugin>Args, as in upstream's examples).
func decodeArgs(d *decoder, n *yaml.Node, args any, path, name string) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.MappingNode {
		var rest []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "apiVersion":
				if v.Value != APIVersion {
					return &posError{line: v.Line, msg: fmt.Sprintf("%s.apiVersion: want %s, got %s", path, APIVersion, quoteShort(v.Value))}
				}
			case "kind":
				if v.Value != name+"Args" {
					return &posError{line: v.Line, msg: fmt.Sprintf("%s.kind: want %sArgs, got %s", path, name, quoteShort(v.Value))}
				}
			default:
				rest = append(rest, k, v)
			}
		}
		c := *n
		c.Content = rest
		n = &c
	}
	return d.decode(n, reflect.ValueOf(args).Elem(), path)
}

type failFunc func(path, format string, args ...any) error

func validPercentage(path string, v *int32, fail failFunc) error {
	if v != nil && (*v < 0 || *v > 100) {
		return fail(path, "%s: Invalid value: %d: not in valid range [0-100]", path, *v)
	}
	return nil
}

// pluginSets copies the extension points the simulator runs and rejects
// plugins named at the others, unless they are plugins it does not model
// anyway (disabling DefaultPreemption at postFilter is fine).
func pluginSets(p *plugins, spec *scheduler.ProfileSpec, fail failFunc) error {
	const pp = "profiles[0].plugins"
	for _, s := range []struct {
		field string
		from  pluginSet
		to    *scheduler.PluginSet
	}{
		{"multiPoint", p.MultiPoint, &spec.MultiPoint},
		{"preFilter", p.PreFilter, &spec.PreFilter},
		{"filter", p.Filter, &spec.Filter},
		{"score", p.Score, &spec.Score},
	} {
		for _, e := range s.from.Enabled {
			var w int32
			if e.Weight != nil {
				w = *e.Weight
			}
			s.to.Enabled = append(s.to.Enabled, scheduler.PluginRef{Name: e.Name, Weight: w})
		}
		for _, e := range s.from.Disabled {
			s.to.Disabled = append(s.to.Disabled, e.Name)
		}
	}
	for _, s := range []struct {
		field string
		set   pluginSet
	}{
		{"preEnqueue", p.PreEnqueue}, {"queueSort", p.QueueSort}, {"postFilter", p.PostFilter}, {"preScore", p.PreScore},
		{"reserve", p.Reserve}, {"permit", p.Permit}, {"preBind", p.PreBind}, {"bind", p.Bind}, {"postBind", p.PostBind},
		{"placementGenerate", p.PlacementGenerate}, {"placementScore", p.PlacementScore}, {"podGroupPostFilter", p.PodGroupPostFilter},
	} {
		for _, list := range []struct {
			name    string
			plugins []plugin
		}{{"enabled", s.set.Enabled}, {"disabled", s.set.Disabled}} {
			for i, e := range list.plugins {
				if slices.Contains(scheduler.NotModelled, e.Name) {
					continue
				}
				path := fmt.Sprintf("%s.%s.%s[%d]", pp, s.field, list.name, i)
				hint := "configure multiPoint, preFilter, filter or score"
				if s.field == "preScore" {
					hint = "the simulator runs a plugin's PreScore with its Score: configure score"
				}
				return fail(path, "%s: %s at %s is not modelled by the simulator (%s)", path, strconv.Quote(e.Name), s.field, hint)
			}
		}
	}
	return nil
}

func parent(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' || p[i] == '[' {
			return p[:i]
		}
	}
	return ""
}

func syntaxError(err error) error {
	msg := yamlLine.Replace(err.Error())
	var line int
	if _, e := fmt.Sscanf(msg, "line %d:", &line); e == nil {
		_, rest, _ := strings.Cut(msg, ":")
		return &posError{line: line, msg: "YAML: " + strings.TrimSpace(rest)}
	}
	return fmt.Errorf("YAML: %s", msg)
}
