package repl

import (
	"errors"
	"io"

	"github.com/chzyer/readline"
)

// ErrInterrupt is returned by LineEditor.Readline when the user presses
// Ctrl-C at the prompt.
var ErrInterrupt = errors.New("interrupt")

// LineEditor is the terminal line editor a Session reads from. The
// session needs nothing else from it, so github.com/chzyer/readline (the
// default, NewReadline) could be replaced by another library such as
// github.com/ergochat/readline, or by a scripted editor in tests.
type LineEditor interface {
	// Readline shows prompt and returns one line of input without its
	// newline (a recalled multi-line history entry comes back whole). It
	// returns io.EOF at the end of input (Ctrl-D on an empty line) and
	// ErrInterrupt for Ctrl-C.
	Readline(prompt string) (string, error)
	// AddHistory appends an entry to the in-memory history that the
	// up-arrow recalls.
	AddHistory(entry string)
	// Close restores the terminal.
	Close() error
}

// Completer proposes completions for the word before pos in line: the
// candidates' suffixes (what to insert) and the length of the word they
// complete, as readline.AutoCompleter.
type Completer func(line string, pos int) (suffixes []string, length int)

// NewReadline returns a LineEditor on the process's terminal backed by
// github.com/chzyer/readline, with Tab completion from complete (may be
// nil). History persistence is the Session's job (readline's own history
// file is newline-separated and would split multi-line entries).
func NewReadline(complete Completer) (LineEditor, error) {
	cfg := &readline.Config{
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		DisableAutoSaveHistory: true,
		HistoryLimit:           MaxHistory,
	}
	if complete != nil {
		cfg.AutoComplete = completerAdapter(complete)
	}
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return nil, err
	}
	return &rlEditor{rl: rl}, nil
}

type rlEditor struct{ rl *readline.Instance }

func (e *rlEditor) Readline(prompt string) (string, error) {
	e.rl.SetPrompt(prompt)
	line, err := e.rl.Readline()
	switch {
	case errors.Is(err, readline.ErrInterrupt):
		return line, ErrInterrupt
	case errors.Is(err, io.EOF):
		return line, io.EOF
	}
	return line, err
}

func (e *rlEditor) AddHistory(entry string) { _ = e.rl.SaveHistory(entry) }

func (e *rlEditor) Close() error { return e.rl.Close() }

type completerAdapter Completer

func (c completerAdapter) Do(line []rune, pos int) ([][]rune, int) {
	// readline counts pos in runes; the completer works on the string.
	s := string(line)
	bpos := len(string(line[:pos]))
	sufs, n := c(s, bpos)
	out := make([][]rune, len(sufs))
	for i, x := range sufs {
		out[i] = []rune(x)
	}
	// n is a byte length of an ASCII word (identifiers and dots).
	return out, n
}
