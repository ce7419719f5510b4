#!/usr/bin/env python3
"""One line for a real-recording set: how many tracks madmom's own RNN hears a beat in, and how
many of those specviz leaves without beats (issue 37: "beats on every track that has a pulse").

    python3 pulse_summary.py ACTIVATIONS RUN_DIR

ACTIVATIONS: lines `WAV_PATH MEAN P95 ACF_PEAK` of the RNN beat activation after 5 s
(`beat_activation.py`). A track "has a pulse" when the activation's 95th percentile exceeds
0.075: the generated beat-less tracks (dev-notempo, 48) all read 0.069 or less. Only counts
are printed, so the line may be used on a validation set.
"""
import os
import sys

THRESHOLD = 0.075


def main(activations, run_dir):
    pulse, silent_pulse, silent_other, total = 0, 0, 0, 0
    for line in open(activations):
        path, _, p95, _ = line.split()
        name = os.path.basename(path)[:-4]
        est = os.path.join(run_dir, name + ".beats.csv")
        rows = [r for r in open(est) if r[:1].isdigit()] if os.path.exists(est) else []
        total += 1
        if float(p95) > THRESHOLD:
            pulse += 1
            silent_pulse += not rows
        else:
            silent_other += not rows
    print(f"{os.path.basename(run_dir.rstrip('/'))}: madmom's RNN hears a beat in {pulse}/{total}; "
          f"no beats on {silent_pulse} of those, on {silent_other} of the other {total - pulse}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
