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

void spv_biquad_pass(const float *in, float *out, int n, int step, const double *coef) {
    if (n <= 0) return;
    const double b0 = coef[0], b1 = coef[1], b2 = coef[2], a1 = coef[3], a2 = coef[4];
    // y[i + k] = Σ h[m]·u[i + k − m] + P[k]·y[i − 1] + Q[k]·y[i − 2] (k < 4), u = b0·x + b1·x' + b2·x'':
    // the all-pole part's impulse response h, and P[k] = h[k + 1], Q[k] = −a2·h[k].
    const double h1 = -a1, h2 = -a1 * h1 - a2, h3 = -a1 * h2 - a2 * h1, h4 = -a1 * h3 - a2 * h2;
    const double q0 = -a2, q1 = -a2 * h1, q2 = -a2 * h2, q3 = -a2 * h3;
    const double first = in[0];
    double x1 = first, x2 = first;
    double y1 = first * ((b0 + b1 + b2) / (1 + a1 + a2)), y2 = y1; /* y[n-1], y[n-2] */
    const long s = step;
    int i = 0;
    for (; i + 3 < n; i += 4) {
        const double xa = in[i * s], xb = in[(i + 1) * s], xc = in[(i + 2) * s], xd = in[(i + 3) * s];
        const double ua = b0 * xa + b1 * x1 + b2 * x2;
        const double ub = b0 * xb + b1 * xa + b2 * x1;
        const double uc = b0 * xc + b1 * xb + b2 * xa;
        const double ud = b0 * xd + b1 * xc + b2 * xb;
        const double ya = (ua + q0 * y2) + h1 * y1;
        const double yb = ((ub + h1 * ua) + q1 * y2) + h2 * y1;
        const double yc = (((uc + h1 * ub) + h2 * ua) + q2 * y2) + h3 * y1;
        const double yd = ((((ud + h1 * uc) + h2 * ub) + h3 * ua) + q3 * y2) + h4 * y1;
        out[i * s] = (float)ya;
        out[(i + 1) * s] = (float)yb;
        out[(i + 2) * s] = (float)yc;
        out[(i + 3) * s] = (float)yd;
        x2 = xc; x1 = xd;
        y2 = yc; y1 = yd;
    }
    for (; i < n; i++) {
        const double x = in[i * s];
        const double y = b0 * x + b1 * x1 + b2 * x2 - a2 * y2 - a1 * y1;
        out[i * s] = (float)y;
        x2 = x1; x1 = x;
        y2 = y1; y1 = y;
    }
}
