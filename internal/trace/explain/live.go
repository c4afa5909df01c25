package explain

import (
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// jsonCluster is the cluster a "source": "cluster" trace was observed on.
type jsonCluster struct {
	Server    string `json:"server"`
	Context   string `json:"context"`
	Version   string `json:"version"`
	Namespace string `json:"namespace"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

// clusterHeader is the line under the title of a trace observed on a real
// cluster: which cluster, and where its times come from; with a warning
// when the server is not the minor version the simulator models.
func clusterHeader(c *trace.ClusterInfo, lang string) string {
	key := "ui.live.cluster"
	if c.DryRun {
		key = "ui.live.dryrun"
	}
	t := trace.Texts(lang)
	msg, _ := t.Msg(key)
	line := subst(msg, "server", c.Server, "context", c.Context, "version", c.Version, "namespace", c.Namespace)
	if !k8sversion.SameMinor(c.Version) {
		skew, _ := t.Msg("ui.live.skew")
		line += " " + subst(skew, "version", c.Version, "modelled", k8sversion.MinorString)
	}
	return line
}

// liveWord is the catalogue's ui.live.<key> in lang.
func liveWord(lang, key string) string {
	s, _ := trace.Texts(lang).Msg("ui.live." + key)
	return s
}
