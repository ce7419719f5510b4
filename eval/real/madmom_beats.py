#!/usr/bin/env python3
"""Reference beats for the real-recording set: madmom's RNN + DBN beat tracker (the issue's
reference, "madmom's DBN beats"), one `NAME.beats.txt` (a time per line) per WAV.

    .venv/bin/python madmom_beats.py WAV_DIR OUT_DIR
"""
import os
import sys

from madmom.features.beats import DBNBeatTrackingProcessor, RNNBeatProcessor


def main(wav_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    rnn, dbn = RNNBeatProcessor(), DBNBeatTrackingProcessor(fps=100)
    for name in sorted(os.listdir(wav_dir)):
        if not name.endswith(".wav"):
            continue
        out = os.path.join(out_dir, name[:-4] + ".beats.txt")
        if os.path.exists(out):
            continue
        beats = dbn(rnn(os.path.join(wav_dir, name)))
        with open(out + ".tmp", "w") as f:
            f.writelines(f"{b:.3f}\n" for b in beats)
        os.replace(out + ".tmp", out)
        print(name, len(beats), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
