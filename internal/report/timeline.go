package report

// Timeline is a story told as timed steps in titled sections (the phases
// of `trace apply`, or one timeline for the other stories), a block every
// format draws its own way: text as one titled section of "time actor
// message" lines per group, each kind explained under its first step;
// Markdown the same as lists; --format html beside its Diagram, every
// step's explanation opening on a click. Mermaid draws the document's
// Sequence and JSON its Data instead.
type Timeline struct {
	Sections []TimelineSection `json:"sections"`
	// Diagram is what the HTML page draws beside the steps: every step's
	// arrow, its time on the axis (Message.Time) and its text alone,
	// tied to the step by Message.Ref.
	Diagram *Sequence `json:"-"`
}

// TimelineSection is one titled group of steps.
type TimelineSection struct {
	Title string         `json:"title"`
	Steps []TimelineStep `json:"steps"`
}

// TimelineStep is one step: ID ties it to its arrow in the diagram
// (Message.Ref); Detail is a line of its raw fields under the explanation.
type TimelineStep struct {
	ID      string `json:"id"`
	Time    string `json:"time"`
	Actor   string `json:"actor"`
	Text    string `json:"text"`
	Explain string `json:"explain,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Table   *Table `json:"table,omitempty"`
	// Kind is the step's catalogue key: text and Markdown explain a kind
	// under its first step only.
	Kind string `json:"-"`
}

// Player is the cluster's state at every step of a Timeline, for the HTML
// page's player: Changes replayed in order, each step naming how many of
// them have happened by then. The page rebuilds the tables from these
// alone; nothing is computed from the text.
type Player struct {
	Kinds   []PlayerKind   `json:"kinds"`
	Changes []PlayerChange `json:"changes"`
	// Steps are the timeline's steps in page order.
	Steps []PlayerStep `json:"steps"`
	// Dropped counts changes past the recording limit: the state stops
	// at the last kept one.
	Dropped int `json:"dropped,omitempty"`
}

// PlayerKind is one table: a kind, its title and kubectl get's header.
type PlayerKind struct {
	Kind   string   `json:"kind"`
	Title  string   `json:"title"`
	Header []string `json:"header"`
}

// PlayerChange is one committed change: K indexes Kinds, N is the
// object's name, C its row (nil when deleted), A its creation time in
// milliseconds of the story's clock (for AGE), R a pod's last restart.
type PlayerChange struct {
	K int      `json:"k"`
	N string   `json:"n"`
	C []string `json:"c,omitempty"`
	D bool     `json:"d,omitempty"`
	A int64    `json:"a"`
	// R is a pod's last container restart in milliseconds of the story's
	// clock (RESTARTS' "(5s ago)"); absent when none restarted.
	R *int64 `json:"r,omitempty"`
}

// PlayerStep is one step, in page order (the n-th is TimelineStep ID
// "sn"): T its time in milliseconds of the story's clock, N how many
// changes have happened by it, P how many had by the step shown just
// before it in time (the rows changed in between are this step's).
type PlayerStep struct {
	T int64 `json:"t"`
	N int   `json:"n"`
	P int   `json:"p"`
}
