package trace

// Placement is one scheduling cycle's result as a step keeps it: the
// filter verdict of every evaluated node (the scheduler.filter step), or
// the scores of every feasible node (the scheduler.score step), and the
// node chosen. It is data; the explanation draws it as a table.
type Placement struct {
	Node     string
	Filtered []NodeVerdict
	Scores   []NodeScore
}

// NodeVerdict is Filter's verdict on one node: Plugin is the plugin that
// rejected it ("" when the node fits), Reasons its reason texts.
type NodeVerdict struct {
	Node    string
	Plugin  string
	Reasons []string
}

// NodeScore is one feasible node's normalised scores, in profile order,
// and its weighted total.
type NodeScore struct {
	Node    string
	Plugins []PluginScore
	Total   int64
}

// PluginScore is one score plugin's normalised score and its weight.
type PluginScore struct {
	Plugin     string
	Normalized int64
	Weight     int64
}
