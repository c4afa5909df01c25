package report

// Figure is a picture for --format html. Exactly one field is set. The
// text, Markdown and JSON outputs carry the same facts as tables and lists,
// so a figure never holds information the other formats lack.
type Figure struct {
	Title string
	// Lead puts the figure at the top of the HTML page, before the
	// diagram and the steps: the picture the page is about (a rollout's
	// chart, a packet's path through the rules).
	Lead  bool
	Graph *Graph
	Chart *Chart
	Sides *Sides
}

// Graph is a left-to-right layered graph: Layer 0 on the left. Edges
// between nodes of neighbouring layers carry a label (a probability);
// Hot marks the path a packet took.
type Graph struct {
	Nodes []GraphNode
	Edges []GraphEdge
}

// GraphNode is one box of a Graph.
type GraphNode struct {
	ID    string
	Label string
	Layer int
	Hot   bool
}

// GraphEdge is one arrow of a Graph.
type GraphEdge struct {
	From, To string
	Label    string
	Hot      bool
}

// Chart is a step chart of integer series over an ordinal axis (sync 1,
// 2, 3…): the ReplicaSet sizes of a rollout.
type Chart struct {
	XLabel string
	X      []string
	Series []Series
}

// Series is one line of a Chart.
type Series struct {
	Name   string
	Values []float64
}

// Sides shows members grouped by the network side they are on, one row per
// moment (a phase of a quorum story).
type Sides struct {
	Rows []SidesRow
}

// SidesRow is the cluster at one moment: groups of members that can talk.
type SidesRow struct {
	Label  string
	Groups [][]Member
	Down   []Member
}

// Member is one box in a Sides row; Role is leader, follower, candidate,
// pre-candidate or down.
type Member struct {
	Name, Role string
}
