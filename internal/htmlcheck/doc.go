// Package htmlcheck holds the browser test of the --format html pages: it
// loads every golden HTML file in headless Chromium through the DevTools
// protocol and checks what a reader would see. It has no code of its own
// outside the tests.
package htmlcheck
