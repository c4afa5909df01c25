// Package explain turns a trace (package trace: the steps the simulator
// recorded) into the document every format prints: one section per phase
// with each step's sentence and, the first time its kind appears, its
// explanation; the scheduler's filter and score tables; the story's result
// tables; the summary; and the sequence diagram. It builds report values
// only (borrowing render's Markdown escaping, wrapping and the Mermaid
// text it measures against Mermaid's size limit); package render writes them.
package explain
