#!/usr/bin/env bash
# Regenerates the README screenshots in docs/screenshots/ from the real
# interface: it runs `ponder demo` (a scripted session, no API key) in a
# private tmux server, captures the screen with its colours at two moments,
# turns each capture into an HTML page (scripts/screenshots/ansihtml) and
# photographs the page with headless Chromium.
#
# Needs: go, tmux, chromium and the DejaVu fonts. On Debian:
#   apt-get update && apt-get install -y tmux chromium fonts-dejavu-core
#
# Environment: COLS and ROWS set the terminal size (default 120×40),
# CELL_WIDTH the width of a cell in pixels (default 9), TIMEOUT how many
# seconds to wait for each moment of the demo (default 60), ATTEMPTS how
# many times to run the demo if a moment is missed (default 3), CHROMIUM the
# browser binary (default /usr/bin/chromium, else chromium on PATH);
# KEEP_WORK=1 keeps the work directory (captures, pages) for a look.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out_dir=$repo/docs/screenshots
cols=${COLS:-120}
rows=${ROWS:-40}
cell_width=${CELL_WIDTH:-9}
timeout=${TIMEOUT:-60}
attempts=${ATTEMPTS:-3}
chromium=${CHROMIUM:-}
if [[ -z $chromium ]]; then
	if [[ -x /usr/bin/chromium ]]; then chromium=/usr/bin/chromium; else chromium=$(command -v chromium || command -v chromium-browser || true); fi
fi

for tool in go tmux; do
	command -v "$tool" >/dev/null || { echo "make.sh: $tool is missing" >&2; exit 1; }
done
[[ -n $chromium && -x $chromium ]] || { echo "make.sh: chromium is missing (apt-get install -y chromium)" >&2; exit 1; }
fc-list 2>/dev/null | grep -q "DejaVu Sans Mono" ||
	echo "make.sh: warning: font DejaVu Sans Mono not found (apt-get install -y fonts-dejavu-core); columns may not line up" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/ponder-shots.XXXXXX")
[[ -n $work && -d $work ]] || { echo "make.sh: mktemp failed" >&2; exit 1; }
sock=ponder-shots-$$
target=$sock:0.0
sock_path=

log() { printf 'make.sh: %s\n' "$*" >&2; }

# stop_demo kills the private tmux server (and so ponder) and removes the
# socket it leaves behind.
stop_demo() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	if [[ -n $sock_path && -S $sock_path ]]; then rm -f -- "$sock_path"; fi
}

cleanup() {
	stop_demo
	if [[ -n ${KEEP_WORK:-} ]]; then
		log "kept $work"
	else
		rm -rf -- "${work:?}"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- build -----------------------------------------------------------------
log "building ponder and ansihtml"
(cd "$repo" && go build -o "$work/ponder" ./cmd/ponder && go build -o "$work/ansihtml" ./scripts/screenshots/ansihtml)

# --- tmux helpers ----------------------------------------------------------

# capture NAME writes the pane, with its colours, to $work/NAME.ansi and the
# same screen without them to $work/NAME.txt (one capture, so both agree).
capture() {
	tmux -L "$sock" capture-pane -e -p -t "$target" >"$work/$1.ansi"
	sed $'s/\x1b\\[[0-9;:]*m//g' "$work/$1.ansi" >"$work/$1.txt"
}

# shows NAME TEXT... tells whether the capture NAME shows every TEXT (fixed
# strings); the first one missing is left in $missing.
missing=
shows() {
	local name=$1 text
	shift
	missing=
	for text in "$@"; do
		grep -qF -- "$text" "$work/$name.txt" || { missing=$text; return 1; }
	done
}

# wait_for NAME TEXT... polls the screen until it shows every TEXT, and
# leaves that capture in $work/NAME.ansi. The screen must show them on two
# polls in a row, alike but for the spinner's line (which never holds
# still), so that a frame the terminal has only half drawn is never taken.
# It fails if ponder exits, if the screen shows $too_late (the moment has
# passed), or after $timeout seconds.
too_late=
wait_for() {
	local name=$1
	shift
	local deadline=$((SECONDS + timeout))
	rm -f -- "$work/$name.seen"
	while :; do
		if ! tmux -L "$sock" has-session -t "$sock" 2>/dev/null; then
			log "ponder exited before showing: $*"
			return 1
		fi
		capture "$name"
		if shows "$name" "$@"; then
			grep -vF 'Working…' "$work/$name.txt" >"$work/$name.now" || true
			if [[ -f $work/$name.seen ]] && cmp -s "$work/$name.seen" "$work/$name.now"; then
				return 0
			fi
			mv -- "$work/$name.now" "$work/$name.seen"
		else
			rm -f -- "$work/$name.seen"
			if [[ -n $too_late ]] && grep -qF -- "$too_late" "$work/$name.txt"; then
				log "missed the moment: the screen showed \"$too_late\" before: $missing"
				return 1
			fi
		fi
		if ((SECONDS >= deadline)); then
			log "timed out after ${timeout}s waiting for: ${missing:-the screen to hold still}"
			log "the screen was:"
			cat "$work/$name.txt" >&2
			return 1
		fi
		sleep 0.05
	done
}

send() { tmux -L "$sock" send-keys -t "$target" "$@"; }

# --- run the demo ----------------------------------------------------------
# HOME and TMPDIR point into the work directory: the demo's scratch project
# lands there (and is removed with it), no user configuration is read, and
# the interface shows the short ~/ponder-demo-… paths.
printf '%s\n' 'set -g status off' 'set -g default-terminal "xterm-256color"' 'set -g history-limit 100' >"$work/tmux.conf"
demo_home=$work/home
cmd=$(printf 'exec env HOME=%q TMPDIR=%q TERM=xterm-256color COLORTERM=truecolor %q demo' \
	"$demo_home" "$demo_home" "$work/ponder")

# shoot runs the demo once and captures both moments.
shoot() {
	mkdir -p -- "$demo_home"
	log "starting ponder demo in a ${cols}x${rows} tmux pane"
	tmux -L "$sock" -f "$work/tmux.conf" new-session -d -s "$sock" -x "$cols" -y "$rows" "$cmd"
	sock_path=$(tmux -L "$sock" display-message -p -t "$target" '#{socket_path}')
	local size
	size=$(tmux -L "$sock" display-message -p -t "$target" '#{pane_width}x#{pane_height}')
	[[ $size == "${cols}x${rows}" ]] || { log "the pane is $size, not ${cols}x${rows}"; return 1; }

	too_late=
	wait_for start "Add a --shout flag that prints the greeting in capitals" "DEMO: scripted session" || return 1
	send Enter
	wait_for ask "Enter plan mode?" "Yes, plan first" || return 1
	send Enter

	# Plan mode: the frame right after the plan file is written shows the
	# most of it: the exploring tool calls, the refused writes, the plan
	# written, the "◆ planning" hint and the "plan mode" badge. The status
	# line is required too, so that the frame is complete to the last row.
	# The moment lasts under a second, until the approval dialog opens.
	too_late="Ready to code?"
	wait_for plan-mode "Right: plan mode refuses any change but the plan" "Created file" \
		"◆ planning" "· plan file" "refused" "plan mode" "DEMO: scripted session" || return 1

	too_late=
	wait_for approval "Ready to code? Here is ponder's plan" "Would you like to proceed?" "No, keep planning" || return 1

	# Leave politely: Esc closes the dialog, then /exit; stop_demo follows.
	send Escape
	send -l "/exit"
	send Enter
}

for ((attempt = 1; ; attempt++)); do
	if shoot; then
		stop_demo
		break
	fi
	stop_demo
	rm -rf -- "${demo_home:?}"
	if ((attempt >= attempts)); then
		log "giving up after $attempts attempts"
		exit 1
	fi
	log "trying again (attempt $((attempt + 1)) of $attempts)"
done

# --- convert and photograph ----------------------------------------------
window=$("$work/ansihtml" -cols "$cols" -rows "$rows" -cell-width "$cell_width" -size)
mkdir -p "$out_dir"
for shot in plan-mode approval; do
	"$work/ansihtml" -cols "$cols" -rows "$rows" -cell-width "$cell_width" \
		-title "ponder: $shot" -o "$work/$shot.html" "$work/$shot.ansi"
	log "rendering $shot.png (${window/,/x})"
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --force-device-scale-factor=1 \
		--user-data-dir="$work/chromium-$shot" --screenshot="$work/$shot.png" \
		--window-size="$window" "file://$work/$shot.html" >"$work/chromium-$shot.log" 2>&1 || {
		log "chromium failed:"
		cat "$work/chromium-$shot.log" >&2
		exit 1
	}
	[[ -s $work/$shot.png ]] || { log "chromium wrote no $shot.png"; cat "$work/chromium-$shot.log" >&2; exit 1; }
	cp "$work/$shot.png" "$out_dir/$shot.png"
	log "wrote docs/screenshots/$shot.png ($(wc -c <"$out_dir/$shot.png") bytes)"
done
