// Package report is the document model every command prints through: a Doc
// is a list of blocks (headings, paragraphs, tables, bars, code, lists and an
// optional sequence diagram); package render writes it as text, Markdown,
// Mermaid, JSON or HTML.
//
// Commands build a Doc from what their model computed; they never format
// output themselves. The same Doc gives the same bytes in every format, so
// golden files can pin each one.
package report

// Doc is one command's output.
type Doc struct {
	Title  string  `json:"title"`
	Blocks []Block `json:"blocks"`
	// Sequence, when set, is what --format mermaid draws (and Markdown
	// embeds, and HTML draws beside blocks without a Timeline).
	Sequence *Sequence `json:"sequence,omitempty"`
	// Player, when set with a Timeline block, is the cluster's state at
	// each of its steps: --format html plays the story with it.
	Player *Player `json:"-"`
	// Data, when set, replaces the block dump in --format json with a
	// command-specific, documented structure.
	Data any `json:"-"`
	// Schema names Data's documented structure and its version
	// (k8sexplain.quorum/v1, docs/json.md); --format json writes it as
	// the object's first field, "schema".
	Schema string `json:"-"`
}

// Block is one piece of a Doc. Exactly one field is set.
type Block struct {
	Heading *Heading `json:"heading,omitempty"`
	Para    *Para    `json:"paragraph,omitempty"`
	List    *List    `json:"list,omitempty"`
	Table   *Table   `json:"table,omitempty"`
	Bars    *Bars    `json:"bars,omitempty"`
	Code    *Code    `json:"code,omitempty"`
	// Figure is a picture only --format html draws; the other formats
	// carry the same facts in the blocks around it and skip it.
	Figure *Figure `json:"-"`
	// Timeline is a story's timed steps (see Timeline): HTML draws the
	// first one beside its diagram, ahead of the other blocks.
	Timeline *Timeline `json:"timeline,omitempty"`
}

// Heading is a section title; Level 1 is the largest under the Doc title.
type Heading struct {
	Level int    `json:"level"`
	Text  string `json:"text"`
}

// Para is a paragraph. Style "note" is shown dimmed in text, as a quote in
// Markdown; "warn" in yellow; "ok" in green; "bad" in red.
type Para struct {
	Text  string `json:"text"`
	Style string `json:"style,omitempty"`
	// Plain says only the plain formats (text, Markdown) print it: the
	// HTML page leaves it out (a simulated trace's version and latencies
	// line; the page's steps carry their times).
	Plain bool `json:"-"`
}

// List is a bulleted (or numbered) list.
type List struct {
	Items    []string `json:"items"`
	Numbered bool     `json:"numbered,omitempty"`
	// Markdown says the items are already Markdown, their text escaped
	// with MDText; other formats never see such a list.
	Markdown bool `json:"-"`
}

// Table is a grid; Right marks right-aligned columns (numbers). Highlight
// marks rows to emphasise (for example the requested cluster size).
type Table struct {
	Header    []string   `json:"header"`
	Rows      [][]string `json:"rows"`
	Right     []bool     `json:"-"`
	Highlight []bool     `json:"-"`
}

// Bars is a horizontal bar chart of non-negative values.
type Bars struct {
	Unit string `json:"unit,omitempty"`
	// Max is the value a full bar stands for (a percentage: 100); 0 scales
	// the bars to the largest row.
	Max  float64 `json:"max,omitempty"`
	Rows []Bar   `json:"rows"`
}

// Bar is one row of a bar chart.
type Bar struct {
	Label string  `json:"label"`
	Value float64 `json:"value"`
	Note  string  `json:"note,omitempty"`
}

// Code is a verbatim block (rules, YAML, commands).
type Code struct {
	Lang string `json:"lang,omitempty"`
	Text string `json:"text"`
	// Mark lists 0-based lines to highlight in HTML (a packet's path).
	Mark []int `json:"-"`
}

// Sequence is a Mermaid sequenceDiagram.
type Sequence struct {
	Participants []Participant `json:"participants"`
	Messages     []Message     `json:"messages"`
	// Untitled draws the diagram without the document's title (a
	// trace's: its title is the command line the reader just ran).
	Untitled bool `json:"-"`
}

// Participant is one lifeline; ID must be a plain identifier.
type Participant struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Message is an arrow, or a note over From when Note is true. Reply draws
// a dashed arrow. Section starts a new "rect"-less divider (a Note across all).
type Message struct {
	From    string `json:"from"`
	To      string `json:"to,omitempty"`
	Text    string `json:"text"`
	Reply   bool   `json:"reply,omitempty"`
	Note    bool   `json:"note,omitempty"`
	Section bool   `json:"section,omitempty"`
	// Count > 1 says the arrow stands for that many alike messages
	// (a summarised diagram); Mermaid adds "×N" to the label.
	Count int `json:"count,omitempty"`

	// What only the HTML diagram uses: the time on the axis (Text then
	// holds the label alone), the kind that lets alike neighbours fold into
	// one arrow, and Ref, the id of the step the arrow stands for.
	Time string `json:"-"`
	Kind string `json:"-"`
	Ref  string `json:"-"`
	// Minor marks a message shown only with -v (a watch delivery, an
	// etcd write): a summarised diagram folds these first.
	Minor bool `json:"-"`
}

// Builder helpers keep command code short.

// H appends a heading.
func (d *Doc) H(level int, text string) {
	d.Blocks = append(d.Blocks, Block{Heading: &Heading{level, text}})
}

// P appends a paragraph.
func (d *Doc) P(text string) { d.Blocks = append(d.Blocks, Block{Para: &Para{Text: text}}) }

// Styled appends a paragraph with a style (note, warn, ok, bad).
func (d *Doc) Styled(style, text string) {
	d.Blocks = append(d.Blocks, Block{Para: &Para{Text: text, Style: style}})
}

// L appends a bulleted list.
func (d *Doc) L(items ...string) { d.Blocks = append(d.Blocks, Block{List: &List{Items: items}}) }

// T appends a table.
func (d *Doc) T(t *Table) { d.Blocks = append(d.Blocks, Block{Table: t}) }

// C appends a code block.
func (d *Doc) C(lang, text string) {
	d.Blocks = append(d.Blocks, Block{Code: &Code{Lang: lang, Text: text}})
}

// Fig appends a figure (drawn only in HTML).
func (d *Doc) Fig(f *Figure) { d.Blocks = append(d.Blocks, Block{Figure: f}) }

// B appends a bar chart.
func (d *Doc) B(b *Bars) { d.Blocks = append(d.Blocks, Block{Bars: b}) }

// Line appends a timeline.
func (d *Doc) Line(t *Timeline) { d.Blocks = append(d.Blocks, Block{Timeline: t}) }
