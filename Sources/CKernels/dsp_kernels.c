// dsp_kernels.c -- the analysis kernels twice (baseline and AVX2).
#include "kernels.h"
#include "spv_dsp_kernels.h"

#define KERNEL_BODY "dsp_body.h"
#include "twice.h"

void spv_real_fft(const float *input, float *re, float *im, int half, const int32_t *bitReverse,
                  float *zr, float *zi, float *yr, float *yi, const float *stageRe, const float *stageIm,
                  const float *splitRe, const float *splitIm) {
    DISPATCH(real_fft, (input, re, im, half, bitReverse, zr, zi, yr, yi, stageRe, stageIm, splitRe, splitIm));
}

void spv_goertzel_banks(const float *x, int n, const double *c0, const double *c1, const double *c2,
                        double *state) {
    DISPATCH(goertzel_banks, (x, n, c0, c1, c2, state));
}

void spv_lag_difference(const double *prefix, const float *acf, int n, int m, float *diff, double *diffD,
                        float *cmnd) {
    DISPATCH(lag_difference, (prefix, acf, n, m, diff, diffD, cmnd));
}

void spv_lag_pearson(const double *prefix, const float *acf, int n, int m, float *pearson) {
    DISPATCH(lag_pearson, (prefix, acf, n, m, pearson));
}

double spv_min_difference(const float *x, int n, int lo, int hi) {
    return DISPATCH(min_difference, (x, n, lo, hi));
}

double spv_energy(const float *x, int n) {
    return DISPATCH(energy, (x, n));
}

void spv_decimate2(const float *x, int n, const float *taps, int ntaps, float *out) {
    DISPATCH(decimate2, (x, n, taps, ntaps, out));
}

void spv_probe_table(const float *win, int n, double w, float *re, float *im) {
    DISPATCH(probe_table, (win, n, w, re, im));
}

void spv_dot_pair(const float *x, const float *a, const float *b, int n, double *out) {
    DISPATCH(dot_pair, (x, a, b, n, out));
}

double spv_load_window(const float *x, int n, float *window, double *prefix) {
    return DISPATCH(load_window, (x, n, window, prefix));
}

void spv_power_even(const float *re, const float *im, int n, float *out) {
    DISPATCH(power_even, (re, im, n, out));
}

void spv_low_band_energy(const float *x, int n, int parts, const float *m, const float *b, float *state,
                         float *out) {
    DISPATCH(low_band_energy, (x, n, parts, m, b, state, out));
}

float spv_flux_range(const float *re, const float *im, float scale, float *previous, int from, int through,
                     float *level) {
    return DISPATCH(flux_range, (re, im, scale, previous, from, through, level));
}

float spv_novelty(const float *m, const float *last, const float *rows, int frames, int width, float ratio, int lo,
                  int hi, float *bands, float *fresh) {
    return DISPATCH(novelty, (m, last, rows, frames, width, ratio, lo, hi, bands, fresh));
}

void spv_biquad_pass(const float *in, float *out, int n, int step, const double *coef) {
    if (n <= 0) return;
    const double b0 = coef[0], b1 = coef[1], b2 = coef[2], a1 = coef[3], a2 = coef[4];
    // Four outputs at a time in one vector: y[i + k] = U[k] + P[k]·y[i − 1] + Q[k]·y[i − 2], with
    // U[k] = Σ_{m ≤ k} h[m]·u[i + k − m] (u = b0·x + b1·x' + b2·x'', h the all-pole part's
    // impulse response), P[k] = h[k + 1] and Q[k] = −a2·h[k].
    const double h1 = -a1, h2 = -a1 * h1 - a2, h3 = -a1 * h2 - a2 * h1, h4 = -a1 * h3 - a2 * h2;
    const d4 H1 = {0, h1, h1, h1}, H2 = {0, 0, h2, h2}, H3 = {0, 0, 0, h3};
    const d4 P = {h1, h2, h3, h4}, Q = {-a2, -a2 * h1, -a2 * h2, -a2 * h3};
    const d4 zero = 0;
    const double first = in[0];
    double x1 = first, x2 = first;
    double y1 = first * ((b0 + b1 + b2) / (1 + a1 + a2)), y2 = y1; /* y[n-1], y[n-2] */
    const long s = step;
    int i = 0;
    for (; i + 3 < n; i += 4) {
        f4 xf;
        if (step == 1) {
            __builtin_memcpy(&xf, in + i, sizeof xf);
        } else {
            f4 r;
            __builtin_memcpy(&r, in - i - 3, sizeof r);
            xf = __builtin_shufflevector(r, r, 3, 2, 1, 0);
        }
        const d4 x = __builtin_convertvector(xf, d4);
        const d4 xp = {x1, x2, 0, 0};
        const d4 u = (b0 * x + b1 * __builtin_shufflevector(x, xp, 4, 0, 1, 2)) + b2 * __builtin_shufflevector(x, xp, 5, 4, 0, 1);
        const d4 U = ((u + H1 * __builtin_shufflevector(u, zero, 4, 0, 1, 2)) + H2 * __builtin_shufflevector(u, zero, 4, 4, 0, 1)) +
                     H3 * __builtin_shufflevector(u, zero, 4, 4, 4, 0);
        const d4 y = (U + Q * y2) + P * y1;
        const f4 yf = __builtin_convertvector(y, f4);
        if (step == 1) {
            __builtin_memcpy(out + i, &yf, sizeof yf);
        } else {
            const f4 r = __builtin_shufflevector(yf, yf, 3, 2, 1, 0);
            __builtin_memcpy(out - i - 3, &r, sizeof r);
        }
        x2 = x[2]; x1 = x[3];
        y2 = y[2]; y1 = y[3];
    }
    for (; i < n; i++) {
        const double x = in[i * s];
        const double y = b0 * x + b1 * x1 + b2 * x2 - a2 * y2 - a1 * y1;
        out[i * s] = (float)y;
        x2 = x1; x1 = x;
        y2 = y1; y1 = y;
    }
}
