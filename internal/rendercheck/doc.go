// Package rendercheck holds the tests that open the golden files in the
// programs people read them with: every HTML page in headless Chromium
// (through the DevTools protocol), every Markdown file through a CommonMark
// renderer (goldmark), and every Mermaid diagram through the real mermaid
// library in that browser. It has no code of its own outside the tests.
package rendercheck
