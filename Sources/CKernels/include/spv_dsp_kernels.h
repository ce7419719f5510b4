// spv_dsp_kernels.h -- the analysis's innermost loops: the real FFT's passes, the lag
// functions' normalisations, the harmonic fingerprint's resonators and decimation, a DFT bin.
//
// Compiled twice from one source (dsp_body.h): for the x86-64 baseline (SSE2) and for
// AVX2, chosen at run time by CPUID, like the rasteriser's kernels. Floating-point
// contraction is off and every operation is written in the order the Swift code it
// replaced used, so both kernels give the same numbers bit for bit.
#ifndef SPV_DSP_KERNELS_H
#define SPV_DSP_KERNELS_H
#include <stdint.h>
#include "spv_kernels.h"

/// The complex half-size FFT inside a real FFT of 2·half samples (split arrays), then the
/// split into the one-sided spectrum re/im[0…half] (twiddles splitRe/splitIm[0…half]);
/// twiddles of the stage of span h at stageRe/stageIm[h − 1 …]. half ≥ 4, a power of two.
/// From half = 64 to 2048 by Stockham stages in natural order between zr/zi and yr/yi
/// (`half` floats each); otherwise in place in zr/zi after the gather of input[2i],
/// input[2i+1] in bit-reversed order (`bitReverse`). Both
/// paths make every output with the same operations: the same floats.
void spv_real_fft(const float *input, float *re, float *im, int half, const int32_t *bitReverse,
                  float *zr, float *zi, float *yr, float *yi, const float *stageRe, const float *stageIm,
                  const float *splitRe, const float *splitIm);

/// Three banks of eight Goertzel resonators over x[0…n−1]:
/// s = (x − s2) + c·s1 per lane, in double. Writes each bank's last two states:
/// state[0…7] = a1, [8…15] = a2, [16…23] = b1, [24…31] = b2, [32…39] = d1, [40…47] = d2.
void spv_goertzel_banks(const float *x, int n, const double *c0, const double *c1, const double *c2,
                        double *state);

/// The lag analysis's per-lag normalisations for t = 1…m (LagAnalysis.computeLags), from
/// the prefix sums of x² (prefix[0…n]) and the raw autocorrelation acf[0…m]:
/// d(t) = max-like(E1 + E2 − 2·acf[t]) / (n − t) into diff (float) and diffD (double), and
/// YIN's CMND into cmnd (cmnd[0], diff[0] are left to the caller).
void spv_lag_difference(const double *prefix, const float *acf, int n, int m, float *diff, double *diffD,
                        float *cmnd);

/// Pearson r(t) = acf[t] / √(E1·E2) for t = 1…m (0 where the denominator is ≤ 1e-20).
void spv_lag_pearson(const double *prefix, const float *acf, int n, int m, float *pearson);

/// Σ_{i<n−t} (x[i] − x[i+t])² / (n − t) for lags t = lo…hi (1 ≤ lo ≤ hi < n): the least of
/// them. Squares are summed in 8 float lanes per 64 samples, each 64 added in double.
double spv_min_difference(const float *x, int n, int lo, int hi);

/// Σ x² of n samples (8 float lanes per 64, added in double).
double spv_energy(const float *x, int n);

/// The energy (Σ y²) of each of `parts` equal pieces (each a multiple of 8 samples) of x[0…n−1]
/// through the biquad y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2], eight
/// outputs at a time from the two before them: y = Σ_j column_j·f[j] + (fromY1·y[−1] + fromY2·y[−2]),
/// f the FIR part. m: the 8 columns (64 floats), then fromY1 and fromY2 (8 each); b = {b0, b1, b2};
/// state = {x[−1], x[−2], y[−1], y[−2]}, carried from one call to the next.
void spv_low_band_energy(const float *x, int n, int parts, const float *m, const float *b, float *state,
                         float *out);

/// Σ max(0, m[k] − previous[k]) over bins k = from…through, m[k] = √(re[k]² + im[k]²)·scale, each
/// m[k] then stored in previous[k]; with `level`, also Σ m[k] there. Eight lanes of sums, added
/// in a tree, then the bins after the last eight.
float spv_flux_range(const float *re, const float *im, float scale, float *previous, int from, int through,
                     float *level);

/// Over bins lo…hi of the magnitudes m: returns Σ max(0, m[k] − last[k]), and adds to bands[b]
/// (b = ⌊log₂ k⌋, bin 0 with band 0) Σ max(0, m[k] − ratio·held[k]), held[k] the most bin k
/// held in the `frames` rows of `width` floats at `rows`; *fresh = the sum over the bands.
/// Eight lanes of sums per band, added in a tree.
float spv_novelty(const float *m, const float *last, const float *rows, int frames, int width, float ratio, int lo,
                  int hi, float *bands, float *fresh);

/// One pass of the biquad y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2]
/// (coef = {b0, b1, b2, a1, a2}) over n samples `step` apart (1 forward, −1 backward; `out`
/// may be `in`), in double, from the DC steady state of the first sample. Four outputs at a
/// time, in one vector, each from the two outputs before the four (the state-space step to
/// the fourth power: no pole is added); in float the outputs are those of the one-step
/// recursion within rounding.
void spv_biquad_pass(const float *in, float *out, int n, int step, const double *coef);

/// Low-pass filters x[0…n−1] with the odd-length linear-phase FIR taps[0…ntaps−1] (centred,
/// zeros outside x) and keeps every second sample: out[j] = Σ taps[k]·x[2j + k − ntaps/2],
/// j < n/2. Accumulates in float.
void spv_decimate2(const float *x, int n, const float *taps, int ntaps, float *out);

/// The windowed phasors of one DFT bin at angular frequency w (radians per sample), i < n
/// (n a multiple of 8): re[i] = win[i]·cos(wi), im[i] = −win[i]·sin(wi), computed in double
/// (eight phasors turned by 8w per step, renormalised every 256 samples) and stored as float.
void spv_probe_table(const float *win, int n, double w, float *re, float *im);

/// Two dot products of x with a and b (n samples): out[0] = Σ x·a, out[1] = Σ x·b (8 float
/// lanes per 64, added in double). With `spv_probe_table`'s rows: one DFT bin.
void spv_dot_pair(const float *x, const float *a, const float *b, int n, double *out);

/// Copies x[0…n−1] (n even) to window and fills prefix[0…n] with the running sums of x² in
/// double, two samples per step of the chain (prefix[2i+2] = prefix[2i] + (x²[2i] + x²[2i+1]),
/// prefix[2i+1] = prefix[2i] + x²[2i]). Returns Σ x.
double spv_load_window(const float *x, int n, float *window, double *prefix);

/// The power spectrum of a real transform of 2n points, as the even sequence of 2n points
/// the autocorrelation's inverse transform reads: out[k] = out[2n − k] = re[k]² + im[k]²,
/// k = 0…n.
void spv_power_even(const float *re, const float *im, int n, float *out);

#endif
