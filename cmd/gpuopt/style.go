package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// style colours terminal output; the zero style writes plain text.
type style struct{ color bool }

// styleFor colours w only when it is a terminal, unless the environment
// says otherwise: FORCE_COLOR (non-empty, not "0") forces colour on,
// NO_COLOR (non-empty) turns it off, TERM=dumb turns it off.
func styleFor(w io.Writer) style {
	return style{color: wantColor(w, os.Getenv)}
}

func wantColor(w io.Writer, getenv func(string) string) bool {
	if v := getenv("FORCE_COLOR"); v != "" && v != "0" && v != "false" {
		return true
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal (not a pipe, file or buffer).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ANSI SGR sequences, ruff's palette.
const (
	sgrBold    = "1"
	sgrRed     = "1;31"
	sgrGreen   = "32"
	sgrCyan    = "36"
	sgrBlue    = "1;34"
	sgrDim     = "2"
	sgrRedText = "31"
)

func (st style) paint(sgr, s string) string {
	if !st.color || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

func (st style) bold(s string) string   { return st.paint(sgrBold, s) }
func (st style) code(s string) string   { return st.paint(sgrRed, s) }
func (st style) gutter(s string) string { return st.paint(sgrBlue, s) }
func (st style) mark(s string) string   { return st.paint(sgrCyan, s) }
