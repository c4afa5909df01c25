package scheduler

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
)

// Registration is how a plugin is built: New takes the args decoded from
// the profile's pluginConfig (nil for the defaults) and returns the plugin,
// or FieldErrors naming the bad args; NewArgs, when the plugin takes args,
// returns a pointer to a zero args struct for the config decoder to fill
// (fields tagged as in kube-scheduler's config/v1 types).
type Registration struct {
	New     func(args any) (Plugin, error)
	NewArgs func() any
}

// Registry maps plugin names to their registrations (upstream
// framework/plugins/registry.go NewInTreeRegistry).
type Registry map[string]Registration

// InTree returns the plugins this simulator models. Adding a plugin is one
// file (its type, extension points and newX) and one line here.
func InTree() Registry {
	return Registry{
		NodeUnschedulableName:  {New: newNodeUnschedulable},
		NodeNameName:           {New: newNodeName},
		TaintTolerationName:    {New: newTaintToleration},
		NodeAffinityName:       {New: newNodeAffinity},
		NodePortsName:          {New: newNodePorts},
		NodeResourcesFitName:   {New: newNodeResourcesFit, NewArgs: func() any { return &NodeResourcesFitArgs{} }},
		PodTopologySpreadName:  {New: newPodTopologySpread},
		InterPodAffinityName:   {New: newInterPodAffinity, NewArgs: func() any { return &InterPodAffinityArgs{} }},
		BalancedAllocationName: {New: newBalancedAllocation, NewArgs: func() any { return &BalancedAllocationArgs{} }},
		ImageLocalityName:      {New: newImageLocality},
		VolumeBindingName:      {New: newVolumeBinding},
	}
}

// NotModelled are upstream's in-tree plugins this simulator leaves out
// (volumes, queueing, preemption, binding, DRA, gang scheduling): a profile
// may name them, and they do nothing here.
var NotModelled = []string{
	"SchedulingGates", "PrioritySort", "VolumeRestrictions", "NodeVolumeLimits", "VolumeZone",
	"DefaultPreemption", "DefaultBinder", "DynamicResources", "NodeDeclaredFeatures", "DeferredPodScheduling",
	"GangScheduling", "TopologyPlacementGenerator", "PodGroupPodsCount",
}

// PluginRef is one enabled plugin of a plugin set; Weight 0 means 1.
type PluginRef struct {
	Name   string
	Weight int32
}

// PluginSet is an extension point's enabled and disabled plugins, as in the
// configuration ("*" disables every default).
type PluginSet struct {
	Enabled  []PluginRef
	Disabled []string
}

// ProfileSpec is a KubeSchedulerProfile as the simulator takes it: the
// plugin sets of the extension points it models and the decoded args by
// plugin name.
type ProfileSpec struct {
	SchedulerName                        string
	PercentageOfNodesToScore             int32
	MultiPoint, PreFilter, Filter, Score PluginSet
	Args                                 map[string]any
}

// DefaultMultiPoint is the default profile's multiPoint list with its
// weights (apis/config/v1/default_plugins.go getDefaultPlugins, v1.37 with
// the default feature gates; DynamicResources is on by default).
func DefaultMultiPoint() []PluginRef {
	return []PluginRef{
		{Name: "SchedulingGates"}, {Name: "PrioritySort"}, {Name: NodeNameName}, {Name: NodeUnschedulableName},
		{Name: TaintTolerationName, Weight: 3}, {Name: NodeAffinityName, Weight: 2}, {Name: NodePortsName},
		{Name: NodeResourcesFitName, Weight: 1}, {Name: "VolumeRestrictions"}, {Name: "NodeVolumeLimits"},
		{Name: VolumeBindingName}, {Name: "VolumeZone"}, {Name: PodTopologySpreadName, Weight: 2},
		{Name: InterPodAffinityName, Weight: 2}, {Name: "DynamicResources", Weight: 2}, {Name: "DefaultPreemption"},
		{Name: BalancedAllocationName, Weight: 1}, {Name: ImageLocalityName, Weight: 1}, {Name: "DefaultBinder"},
	}
}

// ConfigError is an error in a profile at a field path (upstream's
// field.Error text, or the framework's message when it builds the profile).
type ConfigError struct {
	Field string // "plugins.score.enabled[0]"; "" when not tied to a field
	Msg   string
}

func (e *ConfigError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// NewProfile builds the profile the configuration describes, the way
// kube-scheduler merges a profile with the defaults (v1 mergePluginSet) and
// expands multiPoint into the extension points (runtime
// expandMultiPointPlugins): an extension point's own enabled plugins come
// first when they re-configure a multiPoint plugin, then the multiPoint
// plugins that implement the point, then the point's other plugins.
// Plugins are built once and shared by the points. Errors are
// *ConfigError, their Field relative to the profile.
func (r Registry) NewProfile(spec ProfileSpec) (Profile, error) {
	p := Profile{Name: spec.SchedulerName, PercentageOfNodesToScore: spec.PercentageOfNodesToScore}
	multi := mergePluginSet(DefaultMultiPoint(), spec.MultiPoint)
	// DynamicResources adds its PostFilter sentence before v1.37.
	p.DRAPostFilter = !k8sversion.AtLeast(37) && slices.ContainsFunc(multi.Enabled, func(e PluginRef) bool { return e.Name == "DynamicResources" })
	sets := []struct {
		field string
		kind  reflect.Type
		set   PluginSet
	}{
		{"preFilter", reflect.TypeFor[PreFilterPlugin](), spec.PreFilter},
		{"filter", reflect.TypeFor[FilterPlugin](), spec.Filter},
		{"score", reflect.TypeFor[ScorePlugin](), spec.Score},
	}
	// Build every plugin named anywhere, once.
	plugins := map[string]Plugin{}
	build := func(field, name string) error {
		if _, ok := plugins[name]; ok || slices.Contains(NotModelled, name) {
			return nil
		}
		reg, ok := r[name]
		if !ok {
			return &ConfigError{field, fmt.Sprintf("plugin %q does not exist (known: %s)", name, strings.Join(r.Names(), ", "))}
		}
		pl, err := reg.New(spec.Args[name])
		if err != nil {
			return &ArgsError{Plugin: name, Err: err}
		}
		plugins[name] = pl
		return nil
	}
	for _, s := range []struct {
		field string
		set   PluginSet
	}{{"multiPoint", spec.MultiPoint}, {"preFilter", spec.PreFilter}, {"filter", spec.Filter}, {"score", spec.Score}} {
		for i, e := range s.set.Enabled {
			if e.Weight < 0 {
				return Profile{}, &ConfigError{indexPath("plugins."+s.field+".enabled", i) + ".weight",
					fmt.Sprintf("Invalid value: %d: must not be negative (disable the plugin instead)", e.Weight)}
			}
			if err := build(indexPath("plugins."+s.field+".enabled", i), e.Name); err != nil {
				return Profile{}, err
			}
		}
	}
	for _, e := range multi.Enabled {
		if err := build("plugins.multiPoint", e.Name); err != nil {
			return Profile{}, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(spec.Args)) {
		if _, used := plugins[name]; !used && !slices.Contains(NotModelled, name) {
			if _, ok := r[name]; !ok {
				return Profile{}, &ConfigError{"pluginConfig", fmt.Sprintf("plugin %q does not exist (known: %s)", name, strings.Join(r.Names(), ", "))}
			}
		}
	}

	weights := map[string]int64{}
	setWeight := func(e PluginRef) {
		if _, ok := weights[e.Name]; !ok {
			weights[e.Name] = max(int64(e.Weight), 1) // 0 means 1 (getValidScoreWeights)
		}
	}
	for _, s := range sets {
		var out []Plugin
		own := mergePluginSet(nil, s.set)
		seen := map[string]bool{}
		for i, e := range own.Enabled {
			pl := plugins[e.Name]
			if pl == nil {
				continue // not modelled
			}
			if !reflect.TypeOf(pl).Implements(s.kind) {
				return Profile{}, &ConfigError{indexPath("plugins."+s.field+".enabled", i), fmt.Sprintf("plugin %q does not extend %s plugin", e.Name, s.kind.Name())}
			}
			if seen[e.Name] {
				return Profile{}, &ConfigError{indexPath("plugins."+s.field+".enabled", i), fmt.Sprintf("plugin %q already registered as %q", e.Name, s.kind.Name())}
			}
			seen[e.Name] = true
		}
		if s.field == "score" {
			for _, e := range own.Enabled {
				setWeight(e)
			}
		}
		if slices.Contains(own.Disabled, "*") {
			for _, e := range own.Enabled {
				if pl := plugins[e.Name]; pl != nil {
					out = append(out, pl)
				}
			}
		} else {
			var overrides, fromMulti []string
			inMulti := map[string]bool{}
			for _, e := range multi.Enabled {
				pl := plugins[e.Name]
				if pl == nil || !reflect.TypeOf(pl).Implements(s.kind) || slices.Contains(own.Disabled, e.Name) {
					continue
				}
				if seen[e.Name] {
					overrides = append(overrides, e.Name)
					continue
				}
				if inMulti[e.Name] {
					return Profile{}, &ConfigError{"plugins.multiPoint", fmt.Sprintf("plugin %q already registered as %q", e.Name, s.kind.Name())}
				}
				inMulti[e.Name] = true
				fromMulti = append(fromMulti, e.Name)
			}
			for _, e := range own.Enabled { // part 1: overrides, in the point's order
				if slices.Contains(overrides, e.Name) {
					out = append(out, plugins[e.Name])
				}
			}
			for _, name := range fromMulti { // part 2
				out = append(out, plugins[name])
			}
			for _, e := range own.Enabled { // part 3
				if pl := plugins[e.Name]; pl != nil && !slices.Contains(overrides, e.Name) {
					out = append(out, pl)
				}
			}
		}
		for _, pl := range out {
			switch s.field {
			case "preFilter":
				p.PreFilter = append(p.PreFilter, pl.(PreFilterPlugin))
			case "filter":
				p.Filter = append(p.Filter, pl.(FilterPlugin))
			case "score":
				p.Score = append(p.Score, WeightedScore{Plugin: pl.(ScorePlugin)})
			}
		}
	}
	for _, e := range multi.Enabled {
		setWeight(e)
	}
	for i := range p.Score {
		p.Score[i].Weight = weights[p.Score[i].Plugin.Name()]
	}
	return p, nil
}

// mergePluginSet is v1 mergePluginSet: the defaults minus the disabled ones
// ("*": all), a default re-configured by an enabled entry replaced in place,
// then the other enabled entries.
func mergePluginSet(defaults []PluginRef, custom PluginSet) PluginSet {
	out := PluginSet{Disabled: custom.Disabled}
	replaced := map[int]bool{}
	if !slices.Contains(custom.Disabled, "*") {
		for _, d := range defaults {
			if slices.Contains(custom.Disabled, d.Name) {
				continue
			}
			if i := slices.IndexFunc(custom.Enabled, func(e PluginRef) bool { return e.Name == d.Name }); i >= 0 {
				d = custom.Enabled[i]
				replaced[i] = true
			}
			out.Enabled = append(out.Enabled, d)
		}
	}
	for i, e := range custom.Enabled {
		if !replaced[i] {
			out.Enabled = append(out.Enabled, e)
		}
	}
	return out
}

// Names returns the registered plugin names, sorted.
func (r Registry) Names() []string {
	names := make([]string, 0, len(r))
	for name := range r {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// ArgsError is a plugin's rejection of its args.
type ArgsError struct {
	Plugin string
	Err    error // FieldErrors with paths relative to the args, or another error
}

func (e *ArgsError) Error() string {
	return "initializing plugin " + strconv.Quote(e.Plugin) + ": " + e.Err.Error()
}

func (e *ArgsError) Unwrap() error { return e.Err }

// FieldErrors are a plugin's args errors, in upstream's field.Error form
// with paths relative to the args.
type FieldErrors []*ConfigError

func (e FieldErrors) Error() string {
	msgs := make([]string, len(e))
	for i, fe := range e {
		msgs[i] = fe.Error()
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]" // utilerrors.Aggregate
}

// OrNil returns nil for no errors, so a nil FieldErrors is a nil error.
func (e FieldErrors) OrNil() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// Invalid, NotSupported, Required, Forbidden and Duplicate word errors as
// k8s.io/apimachinery/pkg/util/validation/field does.
func Invalid(path string, value any, detail string) *ConfigError {
	v := fmt.Sprint(value)
	if s, ok := value.(string); ok {
		v = strconv.Quote(s)
	}
	return &ConfigError{path, "Invalid value: " + v + ": " + detail}
}

// NotSupported: the value is not one of the supported ones.
func NotSupported(path, value string, supported []string) *ConfigError {
	q := make([]string, len(supported))
	for i, s := range supported {
		q[i] = strconv.Quote(s)
	}
	return &ConfigError{path, "Unsupported value: " + strconv.Quote(value) + ": supported values: " + strings.Join(q, ", ")}
}

// Required: the field must be set.
func Required(path, detail string) *ConfigError {
	return &ConfigError{path, "Required value: " + detail}
}

// Forbidden: the field must not be set.
func Forbidden(path, detail string) *ConfigError {
	return &ConfigError{path, "Forbidden: " + detail}
}

// Duplicate: the value appears twice.
func Duplicate(path, value string) *ConfigError {
	return &ConfigError{path, "Duplicate value: " + strconv.Quote(value)}
}

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
