package repl

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxHistory is the number of entries the history file keeps.
const MaxHistory = 1000

// DefaultHistoryFile returns os.UserConfigDir()/tsr/history, or "" when the
// platform has no config directory.
func DefaultHistoryFile() string {
	dir, err := os.UserConfigDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "tsr", "history")
}

// History is the persistent list of REPL entries. An entry may span
// several lines (a multi-line fn); the file holds one entry per line with
// backslash and newline escaped (\\ and \n), so entries come back whole.
type History struct {
	path    string
	entries []string
}

// LoadHistory reads the history file at path (a missing file is an empty
// history). path "" gives a history that is never saved.
func LoadHistory(path string) (*History, error) {
	h := &History{path: path}
	if path == "" {
		return h, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			h.entries = append(h.entries, unescapeEntry(line))
		}
	}
	if err := sc.Err(); err != nil {
		return h, err
	}
	if len(h.entries) > MaxHistory {
		h.entries = h.entries[len(h.entries)-MaxHistory:]
		return h, h.rewrite()
	}
	return h, nil
}

// Entries returns the entries, oldest first.
func (h *History) Entries() []string { return h.entries }

// Add appends entry (surrounding blank lines trimmed) to the history and
// to the file; an empty entry or a repeat of the last one is skipped.
func (h *History) Add(entry string) error {
	entry = strings.Trim(entry, "\n")
	if strings.TrimSpace(entry) == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == entry) {
		return nil
	}
	h.entries = append(h.entries, entry)
	if h.path == "" {
		return nil
	}
	if len(h.entries) > 2*MaxHistory {
		h.entries = h.entries[len(h.entries)-MaxHistory:]
		return h.rewrite()
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(h.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(escapeEntry(entry) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rewrite replaces the file with the current entries (atomically).
func (h *History) rewrite() error {
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range h.entries {
		b.WriteString(escapeEntry(e))
		b.WriteByte('\n')
	}
	tmp := h.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, h.path)
}

func escapeEntry(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`).Replace(s)
}

func unescapeEntry(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
