#!/usr/bin/env python3
"""madmom's RNN beat activation per WAV, after the first 5 s (as the scorer skips them): one line
`PATH MEAN P95 ACF_PEAK` each (ACF_PEAK: the activation's highest autocorrelation at lags of
0.3-1.5 s, mean removed). `pulse_summary.py` reads P95 to tell which tracks have a pulse.

    .venv/bin/python beat_activation.py WAV... > act.txt
"""
import sys

import numpy as np
from madmom.features.beats import RNNBeatProcessor

FPS = 100


def main(paths):
    rnn = RNNBeatProcessor()
    for path in paths:
        a = rnn(path)[5 * FPS:]
        x = a - a.mean()
        ac = np.correlate(x, x, "full")[len(x) - 1:]
        ac /= ac[0] + 1e-9
        peak = ac[int(0.3 * FPS):int(1.5 * FPS)].max()
        print(path, f"{a.mean():.3f} {np.percentile(a, 95):.3f} {peak:.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
