package report

// Timeline is a story told as timed steps in titled sections (the phases
// of `trace apply`, or one timeline for the other stories). --format html
// draws it beside the document's sequence diagram, each step's
// explanation opening on a click; the other formats print the blocks.
type Timeline struct {
	Sections []TimelineSection `json:"sections"`
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
}
