package iostreams

import (
	"strconv"
	"unicode/utf8"
)

// screen is the terminal's size as the pager decision needs it.
type screen struct{ rows, cols int }

// screen asks the terminal for its height (Rows, else LINES) and width;
// rows 0 means unknown.
func (s *Streams) screen() screen {
	var sc screen
	if s.Rows != nil {
		if h, err := s.Rows(); err == nil && h > 0 {
			sc.rows = h
		}
	}
	if sc.rows == 0 && s.Getenv != nil {
		if h, err := strconv.Atoi(s.Getenv("LINES")); err == nil && h > 0 {
			sc.rows = h
		}
	}
	sc.cols = s.TerminalWidth()
	return sc
}

// fits says whether text leaves a row free on the screen for the shell's
// prompt (less -F's "the entire file fits on the first screen"): each line
// takes its display width over the terminal's width in rows, at least
// one. Colour escapes take no room; a rune is one column.
func (sc screen) fits(text []byte) bool {
	used, col := 0, 0
	esc := false
	newRow := func() {
		used++
		col = 0
	}
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		text = text[n:]
		switch {
		case esc:
			esc = !(r >= '@' && r <= '~' && r != '[')
		case r == 0x1b:
			esc = true
		case r == '\n':
			newRow()
		default:
			if sc.cols > 0 && col == sc.cols {
				newRow()
			}
			col++
		}
		if used >= sc.rows {
			return false
		}
	}
	if col > 0 {
		used++
	}
	return used < sc.rows
}
