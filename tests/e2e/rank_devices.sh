#!/usr/bin/env bash
# One process on two devices (two threads, thread i on device i), attach
# mode: its one PROF dir has device_0/ and device_1/, each with exactly the
# tasks its thread queued in every step inside the window, and info.json
# holds clock samples of both devices.
source "$(dirname "$0")/lib.bash"
export E2E_RANKS=2
e2e_run attach --steps=300 --step-gap-ms=30 --threads=2 --devices=0,1 || exit 1
prof=$(ls -d "$out"/PROF_* | head -n 1)
for d in 0 1; do
	[[ -d $prof/device_$d/data ]] || { echo "no device_$d/data in $prof"; exit 1; }
done
python3 - "$prof" <<'PY' || exit 1
import json, sys
info = json.load(open(sys.argv[1] + "/host/info.json"))
devs = sorted(d["device"] for d in info["clockSamples"] if d["samples"])
if devs[:2] != [0, 1] or sorted(info["devices"]) != [0, 1]:
    print(f"clock samples for devices {devs}, data devices {info['devices']}, want [0, 1] each")
    sys.exit(1)
PY
