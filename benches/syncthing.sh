#!/usr/bin/env bash
# One campaign on two machines through a real Syncthing folder: two Syncthing instances on this
# machine (loopback only, separate homes, file watcher on), each carrying its own copy of the
# shared folder, and a library on each side.
#
# 1. Two players record alternately, a second apart, each with `campaign record` (which reads
#    the folder first): how long an event takes to reach the other side, and whether any fork
#    opens (none should: each records after the other's event has arrived).
# 2. A copy of the first library (a data folder copied to another computer) records on the
#    other side: it must take a machine id of its own, so Syncthing makes no lasting conflict
#    copies of anyone's file.
#
# Usage: benches/syncthing.sh [BINARY] [ROUNDS]   (default: target/debug/quartermaster, 20)
# Skips (exit 0) when `syncthing` is not installed (Debian: apt-get install syncthing).
# No traffic leaves the machine: discovery, relays, NAT traversal, usage and crash reports and
# upgrades are all off; the two instances know each other's loopback addresses.
set -euo pipefail
if ! command -v syncthing > /dev/null 2>&1; then
  echo "syncthing is not installed: skipped"
  exit 0
fi
bin=$(realpath "${1:-target/debug/quartermaster}")
rounds=${2:-20}
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

ann=$work/ann; bob=$work/bob
qm "$ann" campaign new lorraine --name Lorraine > /dev/null
qm "$ann" campaign player Ann --machine laptop > /dev/null
qm "$bob" campaign player Bob --machine desktop > /dev/null
qm "$ann" campaign share Lorraine --folder "$work/folder-a" > /dev/null
for _ in $(seq 1 200); do ls "$work"/folder-b/qm-*.jsonl > /dev/null 2>&1 && break; sleep 0.1; done
qm "$bob" campaign sync Lorraine "$work/folder-b" > /dev/null

echo "1. Ann and Bob record alternately, a second apart, $rounds rounds each"
latencies=()
for round in $(seq 1 "$rounds"); do
  for who in ann bob; do
    if [ "$who" = ann ]; then data=$ann; there=$work/folder-b; else data=$bob; there=$work/folder-a; fi
    start=$(now_ms)
    id=$(qm "$data" campaign record Lorraine --battle 1 --json note "$who $round" 2> /dev/null \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["logged"]["id"])' 2> /dev/null || true)
    if [ -z "$id" ]; then latencies+=("refused"); sleep 1; continue; fi
    latencies+=("$(arrival "$there" "$id" "$start")")
    sleep 1
  done
done
sleep 3
qm "$ann" campaign sync Lorraine > /dev/null; qm "$bob" campaign sync Lorraine > /dev/null
forks() { qm "$1" campaign show Lorraine --json | python3 -c 'import json,sys; print(sum(len(b["forks"]) for b in json.load(sys.stdin)["battles"]))'; }
events() { qm "$1" campaign show Lorraine --json | python3 -c 'import json,sys; print(sum(b["events"] + b["events_aside"] for b in json.load(sys.stdin)["battles"]))'; }
printf '%s\n' "${latencies[@]}" | python3 -c '
import sys
values = [l.strip() for l in sys.stdin if l.strip()]
ms = sorted(int(v) for v in values if v.isdigit())
never = values.count("never"); refused = values.count("refused")
print(f"   an event reached the other folder in {ms[len(ms)//2]} ms (median), {ms[0]}–{ms[-1]} ms over {len(ms)} events; never arrived: {never}; records refused (forked): {refused}")'
echo "   forks: Ann $(forks "$ann"), Bob $(forks "$bob"); events: Ann $(events "$ann"), Bob $(events "$bob")"

echo "2. Ann's library copied to a second computer records on Bob's side of the folder"
copy=$work/ann-copy
cp -a "$ann" "$copy"
# On the second computer the synced folder is that computer's (here: Bob's side).
said=$(qm "$copy" campaign share Lorraine --folder "$work/folder-b" | grep -m1 'copied or moved' || true)
echo "   the copy said: ${said:-nothing}"
conflicts_seen=0
for round in $(seq 1 "$rounds"); do
  qm "$copy" campaign record Lorraine --battle 1 note "copy $round" > /dev/null 2>&1 || true
  sleep 2
  qm "$ann" campaign record Lorraine --battle 1 note "original $round" > /dev/null 2>&1 || true
  sleep 2
  n=$(find "$work/folder-a" "$work/folder-b" -name '*sync-conflict*' | wc -l)
  [ "$n" -gt "$conflicts_seen" ] && conflicts_seen=$n
done
sleep 3
qm "$ann" campaign sync Lorraine > /dev/null; qm "$copy" campaign sync Lorraine > /dev/null
files_a=$(ls "$work"/folder-a/qm-*.jsonl | wc -l)
echo "   conflict copies: at most $conflicts_seen at any time, $(find "$work/folder-a" "$work/folder-b" -name '*sync-conflict*' | wc -l) at the end; $files_a machine files (Ann, Bob, the copy)"
echo "   the copy records as: $(qm "$copy" campaign player | tail -1)"
echo "   events: Ann $(events "$ann"), the copy $(events "$copy"); forks: Ann $(forks "$ann")"
echo "work folder: $work"
