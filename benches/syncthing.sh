#!/usr/bin/env bash
# One campaign on two machines through a real Syncthing folder, set up as the README advises
# ("Syncthing settings that suit a table"): two Syncthing instances on this machine (loopback
# only, separate homes), file watcher on with a 1 s delay, conflict copies ON (Syncthing's
# default of 10, written out so the count below can fail), each carrying its own copy of the
# shared folder, and a library on each side.
#
# 1. Turn-taking: two players record alternately, 2 s apart, each with `campaign record` (which
#    reads the folder first): how long an event takes to reach the other side, and how many
#    forks open (none should: each records after the other's event has arrived).
# 2. Concurrent `campaign what-next` on both sides at the same moment, then both players choose
#    at the fork at the same moment (different branches), then one chooses again.
# 3. A third library joins on Bob's side and leaves; both sides tidy at the same moment, twice
#    (nobody departed, then the third named as departed).
# 4. A damaged byte in Ann's file on Bob's side: carried back to Ann, healed by her next sync.
# Throughout, a watcher checks every 0.2 s that each side's folder holds a joinable copy (a
# machine file with a complete header); at the end a newcomer joins from each side, and the
# conflict copies Syncthing made are counted (at most at any time, and at the end).
#
# Usage: benches/syncthing.sh [BINARY] [ROUNDS]   (default: target/debug/quartermaster, 12)
# Skips (exit 0) when `syncthing` is not installed (Debian: apt-get install syncthing).
# No traffic leaves the machine: discovery, relays, NAT traversal, usage and crash reports and
# upgrades are all off; the two instances know each other's loopback addresses.
set -euo pipefail
if ! command -v syncthing > /dev/null 2>&1; then
  echo "syncthing is not installed: skipped"
  exit 0
fi
bin=$(realpath "${1:-target/debug/quartermaster}")
rounds=${2:-12}
work=$(mktemp -d /tmp/qm-syncthing.XXXXXX)
export STNOUPGRADE=1 STNODEFAULTFOLDER=1
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  wait 2> /dev/null || true
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
for side in a b; do
  mkdir -p "$work/folder-$side"
  syncthing generate --home="$work/st-$side" --no-default-folder --skip-port-probing > /dev/null 2>&1
  declare "gui_$side=$(free_port)" "listen_$side=$(free_port)"
done
id_a=$(syncthing serve --home="$work/st-a" --device-id)
id_b=$(syncthing serve --home="$work/st-b" --device-id)

configure() { # side, own id, own ports, other id, other listen port
  python3 - "$work/st-$1/config.xml" "$2" "$3" "$4" "$5" "$6" "$work/folder-$1" <<'PY'
import sys, xml.etree.ElementTree as ET
path, me, gui, listen, other, other_listen, folder = sys.argv[1:]
tree = ET.parse(path); root = tree.getroot()
for f in root.findall("folder"): root.remove(f)
for d in root.findall("device"): root.remove(d)
def device(id_, address):
    d = ET.SubElement(root, "device", id=id_, name=id_[:7], compression="metadata", introducer="false")
    ET.SubElement(d, "address").text = address
    ET.SubElement(d, "autoAcceptFolders").text = "false"
device(me, "dynamic"); device(other, f"tcp://127.0.0.1:{other_listen}")
f = ET.SubElement(root, "folder", id="qm", label="qm", path=folder, type="sendreceive",
                  rescanIntervalS="60", fsWatcherEnabled="true", fsWatcherDelayS="1")
for id_ in (me, other): ET.SubElement(f, "device", id=id_)
# Conflict copies on, as Syncthing ships them (an XML folder without it would get 0: off).
ET.SubElement(f, "maxConflicts").text = "10"
gui_el = root.find("gui"); gui_el.set("enabled", "true"); gui_el.set("tls", "false")
gui_el.find("address").text = f"127.0.0.1:{gui}"
key = gui_el.find("apikey")
if key is None: key = ET.SubElement(gui_el, "apikey")
key.text = "qm-bench-key"
o = root.find("options")
def opt(name, value):
    el = o.find(name)
    if el is None: el = ET.SubElement(o, name)
    el.text = value
for el in o.findall("listenAddress"): o.remove(el)
ET.SubElement(o, "listenAddress").text = f"tcp://127.0.0.1:{listen}"
for name, value in [("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"),
                    ("relaysEnabled", "false"), ("natEnabled", "false"), ("urAccepted", "-1"),
                    ("autoUpgradeIntervalH", "0"), ("crashReportingEnabled", "false"),
                    ("startBrowser", "false"), ("announceLANAddresses", "false")]:
    opt(name, value)
tree.write(path)
PY
}
configure a "$id_a" "$gui_a" "$listen_a" "$id_b" "$listen_b"
configure b "$id_b" "$gui_b" "$listen_b" "$id_a" "$listen_a"
for side in a b; do
  syncthing serve --home="$work/st-$side" --no-browser --no-restart \
    --logfile="$work/st-$side.log" > /dev/null 2>&1 &
  pids+=($!)
done

api() { # port, path
  python3 -c 'import sys, urllib.request
r = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}{sys.argv[2]}", headers={"X-API-Key": "qm-bench-key"})
print(urllib.request.urlopen(r, timeout=2).read().decode())' "$1" "$2" 2> /dev/null || true
}
for _ in $(seq 1 120); do
  if api "$gui_a" /rest/system/connections | grep -q '"connected": *true'; then break; fi
  sleep 0.5
done
api "$gui_a" /rest/system/connections | grep -q '"connected": *true' || { echo "the two instances did not connect"; exit 1; }
echo "two Syncthing $(syncthing --version | cut -d' ' -f2) instances connected on loopback"

qm() { "$bin" --data-dir "$@"; }
now_ms() { date +%s%3N; }
# Waits until a file in folder $1 holds text $2; prints the milliseconds it took from $3.
arrival() {
  for _ in $(seq 1 400); do
    if grep -rqs --include='qm-*.jsonl' -- "$2" "$1"; then echo $(($(now_ms) - $3)); return; fi
    sleep 0.025
  done
  echo "never"
}

ann=$work/ann; bob=$work/bob; cat=$work/cat
qm "$ann" campaign new lorraine --name Lorraine > /dev/null
qm "$ann" campaign player Ann --machine laptop > /dev/null
qm "$bob" campaign player Bob --machine desktop > /dev/null
qm "$cat" campaign player Cat --machine tablet > /dev/null
qm "$ann" campaign share Lorraine --folder "$work/folder-a" > /dev/null
for _ in $(seq 1 200); do ls "$work"/folder-b/qm-*.jsonl > /dev/null 2>&1 && break; sleep 0.1; done
qm "$bob" campaign sync Lorraine "$work/folder-b" > /dev/null

# The watcher: every 0.2 s, each side's folder must hold a machine file with a complete header.
watch_log=$work/joinable.log
(
  while :; do
    for side in a b; do
      ok=0
      for f in "$work/folder-$side"/qm-*.jsonl; do
        [ -f "$f" ] && head -c 4096 "$f" | head -1 | grep -q '"quartermaster-campaign-log"' && { ok=1; break; }
      done
      [ "$ok" = 1 ] || echo "$(date +%s.%N) folder-$side held no joinable copy" >> "$watch_log"
    done
    n=$(find "$work/folder-a" "$work/folder-b" -name '*sync-conflict*' | wc -l)
    echo "$n" >> "$work/conflicts.log"
    sleep 0.2
  done
) &
pids+=($!)

forks() { qm "$1" campaign show Lorraine --json | python3 -c 'import json,sys; print(sum(1 for b in json.load(sys.stdin)["battles"] for f in b["forks"] if f["open"]))'; }
forks_ever() { qm "$1" campaign show Lorraine --json | python3 -c 'import json,sys; print(sum(len(b["forks"]) for b in json.load(sys.stdin)["battles"]))'; }
events() { qm "$1" campaign show Lorraine --json | python3 -c 'import json,sys; print(sum(b["events"] + b["events_aside"] for b in json.load(sys.stdin)["battles"]))'; }
battles() { qm "$1" campaign show Lorraine --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["battles"]))'; }

echo "1. Ann and Bob take turns, 2 s apart, $rounds rounds each"
latencies=()
before=$(forks_ever "$ann")
for round in $(seq 1 "$rounds"); do
  for who in ann bob; do
    if [ "$who" = ann ]; then data=$ann; there=$work/folder-b; else data=$bob; there=$work/folder-a; fi
    start=$(now_ms)
    id=$(qm "$data" campaign record Lorraine --battle 1 --json note "$who $round" 2> /dev/null \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["logged"]["id"])' 2> /dev/null || true)
    if [ -z "$id" ]; then latencies+=("refused"); sleep 2; continue; fi
    latencies+=("$(arrival "$there" "$id" "$start")")
    sleep 2
  done
done
sleep 3
qm "$ann" campaign sync Lorraine > /dev/null; qm "$bob" campaign sync Lorraine > /dev/null
printf '%s\n' "${latencies[@]}" | python3 -c '
import sys
values = [l.strip() for l in sys.stdin if l.strip()]
ms = sorted(int(v) for v in values if v.isdigit())
never = values.count("never"); refused = values.count("refused")
print(f"   an event reached the other folder in {ms[len(ms)//2]} ms (median), {ms[0]}–{ms[-1]} ms over {len(ms)} events; never arrived: {never}; records refused: {refused}")'
echo "   forks from turn-taking: $(( $(forks_ever "$ann") - before )); events: Ann $(events "$ann"), Bob $(events "$bob")"

echo "2. Both add \"What next?\" at the same moment, then both choose at once, then Ann again"
qm "$ann" campaign what-next Lorraine > "$work/wn-a.txt" 2>&1 &
one=$!
qm "$bob" campaign what-next Lorraine --extra-artillery > "$work/wn-b.txt" 2>&1 &
two=$!
wait "$one" "$two" 2> /dev/null || true
sleep 4
qm "$ann" campaign sync Lorraine > /dev/null; qm "$bob" campaign sync Lorraine > /dev/null
echo "   battles: Ann $(battles "$ann"), Bob $(battles "$bob"); open forks: Ann $(forks "$ann"), Bob $(forks "$bob")"
branches() { qm "$1" campaign show Lorraine --json | python3 -c '
import json,sys
for b in json.load(sys.stdin)["battles"]:
    for f in b["forks"]:
        if f["open"]:
            print(b["number"], " ".join(x["first"] for x in f["branches"])); sys.exit()'; }
fork=$(branches "$ann")
if [ -n "$fork" ]; then
  set -- $fork; battle=$1; first=$2; second=$3
  qm "$ann" campaign record Lorraine --battle "$battle" choose --keep "$first" > /dev/null 2>&1 &
  one=$!
  qm "$bob" campaign record Lorraine --battle "$battle" choose --keep "$second" > /dev/null 2>&1 &
  two=$!
  wait "$one" "$two" 2> /dev/null || true
  sleep 4
  said=$(qm "$bob" campaign sync Lorraine | grep -o "choices disagree[^;]*" || true)
  [ -n "$said" ] || said="no disagreement (one saw the other choice first)"
  echo "   Bob's sync: $said"
  qm "$ann" campaign sync Lorraine > /dev/null
  if [ "$(forks "$ann")" != 0 ]; then
    qm "$ann" campaign record Lorraine --battle "$battle" choose --keep "$first" > /dev/null 2>&1 || true
    sleep 4
    qm "$bob" campaign sync Lorraine > /dev/null
  fi
  echo "   after Ann chose again: open forks Ann $(forks "$ann"), Bob $(forks "$bob")"
fi

echo "3. Cat joins on Bob's side and leaves; both tidy at once, twice"
qm "$cat" campaign sync Lorraine "$work/folder-b" > /dev/null
sleep 4
machine_of() { # folder, machine name: the machine id whose file's header names it
  for f in "$1"/qm-*.jsonl; do head -1 "$f"; done | python3 -c '
import json, sys
for line in sys.stdin:
    h = json.loads(line)
    if h.get("by", {}).get("machine") == sys.argv[1]:
        print(h["machine"])' "$2" | head -1
}
cat_id=$(machine_of "$work/folder-b" tablet)
qm "$ann" campaign sync Lorraine --tidy --yes > "$work/tidy-a.txt" 2>&1 &
one=$!
qm "$bob" campaign sync Lorraine --tidy --yes > "$work/tidy-b.txt" 2>&1 &
two=$!
wait "$one" "$two" 2> /dev/null || true
echo "   nobody departed: Ann's tidy: $(grep -o 'Removed [0-9]* files\?\|Nothing to remove' "$work/tidy-a.txt" | head -1); Bob's: $(grep -o 'Removed [0-9]* files\?\|Nothing to remove' "$work/tidy-b.txt" | head -1)"
qm "$ann" campaign sync Lorraine --tidy --yes --departed "$cat_id" > "$work/tidy-a.txt" 2>&1 &
one=$!
qm "$bob" campaign sync Lorraine --tidy --yes --departed "$cat_id" > "$work/tidy-b.txt" 2>&1 &
two=$!
wait "$one" "$two" 2> /dev/null || true
sleep 4
echo "   Cat departed: Ann's tidy: $(grep -o 'Removed [0-9]* files\?\|Nothing to remove' "$work/tidy-a.txt" | head -1); Bob's: $(grep -o 'Removed [0-9]* files\?\|Nothing to remove' "$work/tidy-b.txt" | head -1); files now: $(ls "$work"/folder-a/qm-*.jsonl | wc -l) on Ann's side, $(ls "$work"/folder-b/qm-*.jsonl | wc -l) on Bob's"

echo "4. A damaged byte in Ann's file on Bob's side"
# Ann's file by its header's recorder (the header's own "machine" is the machine's id).
ann_file=$(for f in "$work"/folder-b/qm-*.jsonl; do
  head -1 "$f" | python3 -c 'import json, sys
sys.exit(0 if json.loads(sys.stdin.readline()).get("by", {}).get("machine") == "laptop" else 1)' \
    && echo "$f" || true
done | head -1)
python3 - "$ann_file" <<'PY'
import sys
path = sys.argv[1]; data = bytearray(open(path, "rb").read())
at = data.rfind(b'"text":"') + 9
data[at] = ord("x") if data[at] != ord("x") else ord("y")
open(path, "wb").write(bytes(data))
PY
sleep 5
# A sync that met damage says so and exits non-zero: what it says is the point here.
said=$(qm "$ann" campaign sync Lorraine 2>&1 | head -1 || true)
sleep 5
qm "$bob" campaign sync Lorraine > /dev/null 2>&1 || true
damaged_lines() { # folder: how many lines of its machine files are not JSON
  python3 - "$1" <<'PY'
import json, os, sys
bad = 0
for n in os.listdir(sys.argv[1]):
    if n.startswith("qm-") and n.endswith(".jsonl"):
        for line in open(os.path.join(sys.argv[1], n), encoding="utf-8", errors="replace"):
            try:
                json.loads(line)
            except ValueError:
                bad += 1
print(bad)
PY
}
left=$(damaged_lines "$work/folder-b")
if [ "$left" = 0 ]; then healed="healed"; else healed="$left damaged lines left"; fi
echo "   Ann's sync: $said; Bob's side of the folder: $healed"

sleep 2
newcomers=""
for side in a b; do
  out=$(qm "$work/new-$side" campaign sync Lorraine "$work/folder-$side" 2>&1 | head -1)
  newcomers="$newcomers folder-$side: $out;"
done
echo "5. A newcomer joins from each side:$newcomers"
echo "   events: Ann $(events "$ann"), Bob $(events "$bob"); open forks: Ann $(forks "$ann"), Bob $(forks "$bob")"
max_conflicts=$(sort -n "$work/conflicts.log" | tail -1)
echo "conflict copies: at most ${max_conflicts:-0} at any time, $(find "$work/folder-a" "$work/folder-b" -name '*sync-conflict*' | wc -l) at the end"
if [ -s "$watch_log" ]; then
  echo "the folder was without a joinable copy $(wc -l < "$watch_log") times: $(head -3 "$watch_log")"
else
  echo "each side's folder held a joinable copy at every look ($(wc -l < "$work/conflicts.log") looks)"
fi
echo "work folder: $work"
