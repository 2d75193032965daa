#!/usr/bin/env bash
# Drives the tsr REPL through a real terminal (tmux) and checks what the
# user sees: multi-line fn input with the continuation prompt, Tab
# completion of tensor methods and module members, Ctrl-C stopping a
# running loop without ending the session, Ctrl-D exiting, and history
# recalled after a restart.
#
# usage: tmux_test.sh PATH/TO/tsr
# Needs tmux. Uses a private tmux server and a private config directory.
set -euo pipefail

TSR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WORK=$(mktemp -d)
SOCK="tsr-test-$$"
T=(tmux -L "$SOCK" -f /dev/null)
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

# os.UserConfigDir: $XDG_CONFIG_HOME on Linux, $HOME/Library/Application
# Support on macOS.
export XDG_CONFIG_HOME="$WORK/config" HOME="$WORK/home"
mkdir -p "$XDG_CONFIG_HOME" "$HOME"
HIST="$XDG_CONFIG_HOME/tsr/history"
[[ "$(uname)" == Darwin ]] && HIST="$HOME/Library/Application Support/tsr/history"

fail() {
	echo "FAIL: $*" >&2
	echo "---- screen ----" >&2
	"${T[@]}" capture-pane -p -t tsr >&2 || true
	exit 1
}

screen() { "${T[@]}" capture-pane -p -t tsr; }

# wait_for TEXT: poll the screen (up to 5 s) until it contains TEXT.
wait_for() {
	for _ in $(seq 100); do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.05
	done
	fail "screen never showed: $1"
}

# wait_count TEXT N: until TEXT appears on at least N lines.
wait_count() {
	for _ in $(seq 100); do
		if [[ $(screen | grep -cF -- "$1") -ge $2 ]]; then return 0; fi
		sleep 0.05
	done
	fail "screen never showed $2 times: $1"
}

keys() { "${T[@]}" send-keys -t tsr "$@"; }

start() {
	"${T[@]}" new-session -d -s tsr -x 100 -y 50 "env TERM=xterm '$TSR'"
	"${T[@]}" set-option -t tsr remain-on-exit on >/dev/null
	wait_for 'tsr>'
}

dead() { [[ $("${T[@]}" list-panes -t tsr -F '#{pane_dead}') == 1 ]]; }

# ---- session 1 ----
start

# Multi-line fn: the prompt changes to "...> " while the block is open.
keys 'fn sq(a) {' Enter
wait_for '...>'
keys '  a * a' Enter '}' Enter
keys 'sq(7)' Enter
wait_for '49'
screen | grep -qxF -- '...>   a * a' || fail "continuation line not shown"

# Tab completion of a tensor method: x.str -> x.stride(
keys 'x = zeros(2, 3)' Enter
keys 'x.str' Tab
wait_for 'tsr> x.stride('
keys ')' Enter
wait_for '(3, 1)'

# A module member: linalg.sv -> linalg.svd (svd and svdvals share it; a
# second Tab lists both)
keys 'linalg.sv' Tab
wait_for 'tsr> linalg.svd'
keys Tab
wait_for 'svdvals('
keys C-u C-c
wait_count 'tsr>' 6

# The expression value is kept in _.
keys '_[0] + 40' Enter
wait_for '43'

# Ctrl-C interrupts a running evaluation; the session goes on.
keys 'while true {}' Enter
sleep 0.5
dead && fail "REPL exited on Enter of while loop"
keys C-c
wait_for 'KeyboardInterrupt'
keys 'print("still" + " alive")' Enter
wait_for 'still alive'

# Ctrl-D exits.
keys C-d
for _ in $(seq 100); do dead && break; sleep 0.05; done
dead || fail "Ctrl-D did not exit"
"${T[@]}" kill-session -t tsr

# The multi-line entry is stored whole (newlines escaped).
grep -qxF 'fn sq(a) {\n  a * a\n}' "$HIST" || { cat "$HIST" >&2; fail "multi-line entry not kept whole in $HIST"; }

# ---- session 2: history survives the restart ----
start
keys Up
wait_for 'tsr> print("still" + " alive")'
keys Enter
wait_for 'still alive'
# Recall the multi-line fn (8 entries back) and run it again.
keys C-u
for _ in $(seq 7); do keys Up; done
wait_for 'tsr> fn sq(a) {'
keys Enter
keys 'sq(12)' Enter
wait_for '144'
keys C-d
echo "PASS"
