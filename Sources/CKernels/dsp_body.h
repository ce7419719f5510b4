// One copy of the analysis kernels; compiled once per target by dsp_kernels.c through
// twice.h, with KNAME(x) (the name suffix) and KATTR (the target attribute) defined.

#define KINLINE static KATTR inline __attribute__((always_inline))

#ifndef FUSE_MAX
/// Stage pairs are fused up to this span: beyond it the four streams a fused pass walks lie
/// 16 KB and more apart and collide in the cache (measured: the 65536-point transform was
/// 12 % slower fused all the way, 10 % faster fused up to here).
#define FUSE_MAX 1024
#endif

KINLINE f8 KNAME(ld8)(const float *p) { f8 v; __builtin_memcpy(&v, p, sizeof v); return v; }
KINLINE void KNAME(st8)(float *p, f8 v) { __builtin_memcpy(p, &v, sizeof v); }
KINLINE f4 KNAME(ld4)(const float *p) { f4 v; __builtin_memcpy(&v, p, sizeof v); return v; }
KINLINE void KNAME(st4)(float *p, f4 v) { __builtin_memcpy(p, &v, sizeof v); }
KINLINE d4 KNAME(ld4d)(const double *p) { d4 v; __builtin_memcpy(&v, p, sizeof v); return v; }
KINLINE void KNAME(st4d)(double *p, d4 v) { __builtin_memcpy(p, &v, sizeof v); }

/// The split of a real FFT: X[k] = (Z[k] + Z*[h−k])/2 − i/2 · W^k · (Z[k] − Z*[h−k]).
static KATTR void KNAME(real_split)(const float *zr, const float *zi, float *re, float *im, int half,
                                    const float *splitRe, const float *splitIm) {
    re[0] = zr[0] + zi[0]; im[0] = 0;
    re[half] = zr[0] - zi[0]; im[half] = 0;
    int k = 1;
    for (; k + 8 <= half; k += 8) {
        f8 ar = KNAME(ld8)(zr + k), ai = KNAME(ld8)(zi + k);
        f8 rr = KNAME(ld8)(zr + half - k - 7), ri = KNAME(ld8)(zi + half - k - 7);
        f8 br = __builtin_shufflevector(rr, rr, 7, 6, 5, 4, 3, 2, 1, 0);
        f8 bi = -__builtin_shufflevector(ri, ri, 7, 6, 5, 4, 3, 2, 1, 0);
        f8 er = 0.5f * (ar + br), ei = 0.5f * (ai + bi);
        f8 dr = 0.5f * (ar - br), di = 0.5f * (ai - bi);
        f8 wr = KNAME(ld8)(splitRe + k), wi = KNAME(ld8)(splitIm + k);
        f8 tr = wr * dr - wi * di, ti = wr * di + wi * dr;
        KNAME(st8)(re + k, er + ti);
        KNAME(st8)(im + k, ei - tr);
    }
    for (; k < half; k++) {
        float ar = zr[k], ai = zi[k];
        float br = zr[half - k], bi = -zi[half - k];
        float er = 0.5f * (ar + br), ei = 0.5f * (ai + bi);
        float dr = 0.5f * (ar - br), di = 0.5f * (ai - bi);
        float wr = splitRe[k], wi = splitIm[k];
        float tr = wr * dr - wi * di, ti = wr * di + wi * dr;
        re[k] = er + ti;
        im[k] = ei - tr;
    }
}


// The real FFT's Stockham path (natural order in and out, ping-ponging between two
// buffers). Stage of stride r (a sub-transform of L = half / r points, twiddles
// w_j = e^(−2πij/L), j < L/2 at stage[L/2 − 1 + j]):
//   E = X[s + 2rj], O = X[s + r + 2rj];  Y[s + rj] = E + w_j·O,  Y[s + rj + half/2] = E − w_j·O.
// It is the decimation in time of the bit-reversed path with its data kept in natural order:
// every output is made by the very same operations, so the two give the same floats. From
// 128 to 4096 points it is a third faster (no bit-reversed gather, fewer passes); from 8192
// on, where the two buffers no longer stay in the first-level cache, it is slower.
#define STOCKHAM_MIN 64
#define STOCKHAM_MAX 2048

/// One radix-2 butterfly on lanes: (e, o) → (e + w·o, e − w·o).
#define SH_BFLY(er, ei, or_, oi, wr, wi)                                  \
    do {                                                                  \
        f8 mr_ = or_ * (wr) - oi * (wi), mi_ = or_ * (wi) + oi * (wr);   \
        or_ = er - mr_; oi = ei - mi_; er = er + mr_; ei = ei + mi_;     \
    } while (0)

// Two stages on four vectors in registers (the very operations of the two): stage 1 (twiddle
// w1) on (a, b) and (c, d), then stage 2 on (a, c) with wA and on (b, d) with wB, whose four
// results go to o and o + q (from a, c) and o + step and o + step + q (from b, d).
KINLINE void KNAME(sh_radix4)(f8 ar, f8 ai, f8 br, f8 bi, f8 cr, f8 ci, f8 dr, f8 di, f8 w1r, f8 w1i, f8 wAr,
                              f8 wAi, f8 wBr, f8 wBi, float *o, float *oi, int step, int q) {
    SH_BFLY(ar, ai, br, bi, w1r, w1i);
    SH_BFLY(cr, ci, dr, di, w1r, w1i);
    SH_BFLY(ar, ai, cr, ci, wAr, wAi);
    KNAME(st8)(o, ar); KNAME(st8)(oi, ai);
    KNAME(st8)(o + q, cr); KNAME(st8)(oi + q, ci);
    SH_BFLY(br, bi, dr, di, wBr, wBi);
    KNAME(st8)(o + step, br); KNAME(st8)(oi + step, bi);
    KNAME(st8)(o + step + q, dr); KNAME(st8)(oi + step + q, di);
}

// The first two stages (stride half/2, so j = 0 and w = 1, and half/4), reading the real input
// as the packed complex z[p] = x[2p] + i·x[2p+1].
KINLINE void KNAME(ld_packed)(const float *x, f8 *r, f8 *i) {
    f8 a = KNAME(ld8)(x), b = KNAME(ld8)(x + 8);
    *r = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
    *i = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
}
static KATTR void KNAME(sh_pair_first)(const float *input, float *yr, float *yi, int half, const float *stageRe, const float *stageIm) {
    const int r = half / 2, q = half / 2, r2 = r / 2;
    const f8 w1r = stageRe[0], w1i = stageIm[0];
    const f8 wAr = stageRe[1], wAi = stageIm[1], wBr = stageRe[2], wBi = stageIm[2];
    for (int s = 0; s < r2; s += 8) {
        f8 ar, ai, br, bi, cr, ci, dr, di;
        KNAME(ld_packed)(input + 2 * s, &ar, &ai);
        KNAME(ld_packed)(input + 2 * (s + r), &br, &bi);
        KNAME(ld_packed)(input + 2 * (s + r2), &cr, &ci);
        KNAME(ld_packed)(input + 2 * (s + r + r2), &dr, &di);
        KNAME(sh_radix4)(ar, ai, br, bi, cr, ci, dr, di, w1r, w1i, wAr, wAi, wBr, wBi, yr + s, yi + s, r2, q);
    }
}

// Two stages (strides r and r/2, r ≥ 16) in registers: the very operations of the two.
static KATTR void KNAME(sh_pair)(const float *xr, const float *xi, float *yr, float *yi, int half, int r,
                                 const float *t1r, const float *t1i, const float *t2r, const float *t2i) {
    const int h = half / (2 * r), q = half / 2, r2 = r / 2;
    for (int j = 0; j < h; j++) {
        const f8 w1r = t1r[j], w1i = t1i[j];
        const f8 wAr = t2r[j], wAi = t2i[j], wBr = t2r[j + h], wBi = t2i[j + h];
        for (int s = 0; s < r2; s += 8) {
            const float *pr = xr + s + 2 * r * j, *pi = xi + s + 2 * r * j;
            f8 ar = KNAME(ld8)(pr), ai = KNAME(ld8)(pi);            // E of s
            f8 br = KNAME(ld8)(pr + r), bi = KNAME(ld8)(pi + r);    // O of s
            f8 cr = KNAME(ld8)(pr + r2), ci = KNAME(ld8)(pi + r2);  // E of s + r/2
            f8 dr = KNAME(ld8)(pr + r + r2), di = KNAME(ld8)(pi + r + r2); // O of s + r/2
            // Stage 1 gives Y[s + rj] (a), Y[s + rj + q] (b), Y[s + r/2 + rj] (c),
            // Y[s + r/2 + rj + q] (d); stage 2 (stride r/2) reads E' = Y[s + r j'],
            // O' = Y[s + r/2 + r j'] for j' = j (a, c) and j + h (b, d).
            KNAME(sh_radix4)(ar, ai, br, bi, cr, ci, dr, di, w1r, w1i, wAr, wAi, wBr, wBi, yr + s + r2 * j,
                             yi + s + r2 * j, r2 * h, q);
        }
    }
}

// One stage with stride r ≥ 8.
static KATTR void KNAME(sh_stage8)(const float *xr, const float *xi, float *yr, float *yi, int half, int r,
                                   const float *tr, const float *ti) {
    const int h = half / (2 * r), q = half / 2;
    for (int j = 0; j < h; j++) {
        const f8 wr = tr[j], wi = ti[j];
        for (int s = 0; s < r; s += 8) {
            const float *pr = xr + s + 2 * r * j, *pi = xi + s + 2 * r * j;
            f8 ar = KNAME(ld8)(pr), ai = KNAME(ld8)(pi);
            f8 br = KNAME(ld8)(pr + r), bi = KNAME(ld8)(pi + r);
            SH_BFLY(ar, ai, br, bi, wr, wi);
            float *o = yr + s + r * j, *oi = yi + s + r * j;
            KNAME(st8)(o, ar); KNAME(st8)(oi, ai);
            KNAME(st8)(o + q, br); KNAME(st8)(oi + q, bi);
        }
    }
}

// The last three stages (strides 4, 2, 1; half ≥ 64) in one pass: for eight consecutive
// j, the 64 inputs X[8j + t] transposed so that lane k of vector t holds X[t + 8(j0 + k)];
// each output vector then holds out[j + m·half/8] for the eight j (contiguous).
KINLINE void KNAME(tr8)(f8 *v) {
    f8 a0 = __builtin_shufflevector(v[0], v[1], 0, 8, 1, 9, 4, 12, 5, 13), a1 = __builtin_shufflevector(v[0], v[1], 2, 10, 3, 11, 6, 14, 7, 15);
    f8 a2 = __builtin_shufflevector(v[2], v[3], 0, 8, 1, 9, 4, 12, 5, 13), a3 = __builtin_shufflevector(v[2], v[3], 2, 10, 3, 11, 6, 14, 7, 15);
    f8 a4 = __builtin_shufflevector(v[4], v[5], 0, 8, 1, 9, 4, 12, 5, 13), a5 = __builtin_shufflevector(v[4], v[5], 2, 10, 3, 11, 6, 14, 7, 15);
    f8 a6 = __builtin_shufflevector(v[6], v[7], 0, 8, 1, 9, 4, 12, 5, 13), a7 = __builtin_shufflevector(v[6], v[7], 2, 10, 3, 11, 6, 14, 7, 15);
    f8 b0 = __builtin_shufflevector(a0, a2, 0, 1, 8, 9, 4, 5, 12, 13), b1 = __builtin_shufflevector(a0, a2, 2, 3, 10, 11, 6, 7, 14, 15);
    f8 b2 = __builtin_shufflevector(a1, a3, 0, 1, 8, 9, 4, 5, 12, 13), b3 = __builtin_shufflevector(a1, a3, 2, 3, 10, 11, 6, 7, 14, 15);
    f8 b4 = __builtin_shufflevector(a4, a6, 0, 1, 8, 9, 4, 5, 12, 13), b5 = __builtin_shufflevector(a4, a6, 2, 3, 10, 11, 6, 7, 14, 15);
    f8 b6 = __builtin_shufflevector(a5, a7, 0, 1, 8, 9, 4, 5, 12, 13), b7 = __builtin_shufflevector(a5, a7, 2, 3, 10, 11, 6, 7, 14, 15);
    v[0] = __builtin_shufflevector(b0, b4, 0, 1, 2, 3, 8, 9, 10, 11); v[4] = __builtin_shufflevector(b0, b4, 4, 5, 6, 7, 12, 13, 14, 15);
    v[1] = __builtin_shufflevector(b1, b5, 0, 1, 2, 3, 8, 9, 10, 11); v[5] = __builtin_shufflevector(b1, b5, 4, 5, 6, 7, 12, 13, 14, 15);
    v[2] = __builtin_shufflevector(b2, b6, 0, 1, 2, 3, 8, 9, 10, 11); v[6] = __builtin_shufflevector(b2, b6, 4, 5, 6, 7, 12, 13, 14, 15);
    v[3] = __builtin_shufflevector(b3, b7, 0, 1, 2, 3, 8, 9, 10, 11); v[7] = __builtin_shufflevector(b3, b7, 4, 5, 6, 7, 12, 13, 14, 15);
}

static KATTR void KNAME(sh_last3)(const float *xr, const float *xi, float *yr, float *yi, int half,
                                  const float *stageRe, const float *stageIm) {
    const int e = half / 8, q = half / 2;
    const float *t4r = stageRe + e - 1, *t4i = stageIm + e - 1;         // h = half/8
    const float *t2r = stageRe + 2 * e - 1, *t2i = stageIm + 2 * e - 1; // h = half/4
    const float *t1r = stageRe + q - 1, *t1i = stageIm + q - 1;         // h = half/2
    for (int j0 = 0; j0 < e; j0 += 8) {
        f8 vr[8], vi[8];
        for (int t = 0; t < 8; t++) { vr[t] = KNAME(ld8)(xr + 8 * j0 + 8 * t); vi[t] = KNAME(ld8)(xi + 8 * j0 + 8 * t); }
        KNAME(tr8)(vr); KNAME(tr8)(vi);
        // Stride 4: E = X[s + 8j] (t = s), O = X[s + 4 + 8j]; Y[s + 4j] ← E + wO (t = s), Y[s + 4j + q] ← E − wO (t = s + 4).
        f8 wr = KNAME(ld8)(t4r + j0), wi = KNAME(ld8)(t4i + j0);
        for (int s = 0; s < 4; s++) SH_BFLY(vr[s], vi[s], vr[s + 4], vi[s + 4], wr, wi);
        // Stride 2: for j' = j, E = Y[s + 4j] (t = s), O = Y[s + 2 + 4j] (t = s + 2); for j' = j + half/8
        // the same from t + 4. Z[s + 2j'] ← E + wO (in E's place), Z[s + 2j' + q] ← E − wO (in O's).
        wr = KNAME(ld8)(t2r + j0); wi = KNAME(ld8)(t2i + j0);
        for (int s = 0; s < 2; s++) SH_BFLY(vr[s], vi[s], vr[s + 2], vi[s + 2], wr, wi);
        wr = KNAME(ld8)(t2r + j0 + e); wi = KNAME(ld8)(t2i + j0 + e);
        for (int s = 4; s < 6; s++) SH_BFLY(vr[s], vi[s], vr[s + 2], vi[s + 2], wr, wi);
        // Stride 1: pairs (t, t + 1) hold Z[2j''], Z[2j'' + 1] for j'' = j (t = 0), j + q/2 (t = 2),
        // j + q/4 (t = 4), j + 3q/4 (t = 6); out[j''] ← E + wO, out[j'' + q] ← E − wO.
        const int off[4] = {0, q / 2, q / 4, 3 * q / 4};
        for (int p = 0; p < 4; p++) {
            wr = KNAME(ld8)(t1r + j0 + off[p]); wi = KNAME(ld8)(t1i + j0 + off[p]);
            SH_BFLY(vr[2 * p], vi[2 * p], vr[2 * p + 1], vi[2 * p + 1], wr, wi);
            KNAME(st8)(yr + j0 + off[p], vr[2 * p]); KNAME(st8)(yi + j0 + off[p], vi[2 * p]);
            KNAME(st8)(yr + j0 + off[p] + q, vr[2 * p + 1]); KNAME(st8)(yi + j0 + off[p] + q, vi[2 * p + 1]);
        }
    }
}

static KATTR void KNAME(real_fft)(const float *input, float *re, float *im, int half, const int32_t *bitReverse,
                                  float *zr, float *zi, float *yr, float *yi, const float *stageRe,
                                  const float *stageIm, const float *splitRe, const float *splitIm) {
    if (half >= STOCKHAM_MIN && half <= STOCKHAM_MAX) {
        float *xr = zr, *xi = zi, *t;
        KNAME(sh_pair_first)(input, xr, xi, half, stageRe, stageIm);
        int r = half / 8;
        for (; r >= 16; r /= 4) {
            const int h = half / (2 * r);
            KNAME(sh_pair)(xr, xi, yr, yi, half, r, stageRe + h - 1, stageIm + h - 1, stageRe + 2 * h - 1,
                           stageIm + 2 * h - 1);
            t = xr; xr = yr; yr = t; t = xi; xi = yi; yi = t;
        }
        if (r == 8) {
            KNAME(sh_stage8)(xr, xi, yr, yi, half, r, stageRe + half / 16 - 1, stageIm + half / 16 - 1);
            t = xr; xr = yr; yr = t; t = xi; xi = yi; yi = t;
        }
        KNAME(sh_last3)(xr, xi, yr, yi, half, stageRe, stageIm);
        KNAME(real_split)(yr, yi, re, im, half, splitRe, splitIm);
        return;
    }
    for (int j = 0; j < half; j++) {
        int i = bitReverse[j];
        zr[j] = input[2 * i];
        zi[j] = input[2 * i + 1];
    }
    if (half == 2) {
        // Size 4: one radix-2 butterfly (twiddle 1).
        float br = zr[1], bi = zi[1];
        zr[1] = zr[0] - br; zi[1] = zi[0] - bi;
        zr[0] = zr[0] + br; zi[0] = zi[0] + bi;
    }
    // The first two stages as one radix-4 pass (twiddles 1 and −i).
    for (int s = 0; half >= 4 && s < half; s += 4) {
        float s01r = zr[s] + zr[s + 1], s01i = zi[s] + zi[s + 1];
        float d01r = zr[s] - zr[s + 1], d01i = zi[s] - zi[s + 1];
        float s23r = zr[s + 2] + zr[s + 3], s23i = zi[s + 2] + zi[s + 3];
        float d23r = zr[s + 2] - zr[s + 3], d23i = zi[s + 2] - zi[s + 3];
        zr[s] = s01r + s23r; zi[s] = s01i + s23i;
        zr[s + 2] = s01r - s23r; zi[s + 2] = s01i - s23i;
        zr[s + 1] = d01r + d23i; zi[s + 1] = d01i - d23r;
        zr[s + 3] = d01r - d23i; zi[s + 3] = d01i + d23r;
    }
    // Radix-2 stages, two at a time where they pair up: the stage of span h and the one of
    // span 2h done on four points (a, a+h, a+2h, a+3h) in registers, the very operations
    // of the two stages in their order (same numbers), with half the loads and stores.
    int h = 4;
    if (h < half) {
        // Span 4 (four lanes), fused with span 8 when there is one.
        const f4 w4r = KNAME(ld4)(stageRe + 3), w4i = KNAME(ld4)(stageIm + 3);
        if (2 * h < half) {
            const f4 w8ar = KNAME(ld4)(stageRe + 7), w8ai = KNAME(ld4)(stageIm + 7);
            const f4 w8br = KNAME(ld4)(stageRe + 11), w8bi = KNAME(ld4)(stageIm + 11);
            for (int start = 0; start < half; start += 16) {
                float *pr = zr + start, *pi = zi + start;
                f4 ar = KNAME(ld4)(pr), ai = KNAME(ld4)(pi);
                f4 br = KNAME(ld4)(pr + 4), bi = KNAME(ld4)(pi + 4);
                f4 cr = KNAME(ld4)(pr + 8), ci = KNAME(ld4)(pi + 8);
                f4 dr = KNAME(ld4)(pr + 12), di = KNAME(ld4)(pi + 12);
                f4 tr = br * w4r - bi * w4i, ti = br * w4i + bi * w4r;
                br = ar - tr; bi = ai - ti; ar = ar + tr; ai = ai + ti;
                tr = dr * w4r - di * w4i; ti = dr * w4i + di * w4r;
                dr = cr - tr; di = ci - ti; cr = cr + tr; ci = ci + ti;
                tr = cr * w8ar - ci * w8ai; ti = cr * w8ai + ci * w8ar;
                KNAME(st4)(pr + 8, ar - tr); KNAME(st4)(pi + 8, ai - ti);
                KNAME(st4)(pr, ar + tr); KNAME(st4)(pi, ai + ti);
                tr = dr * w8br - di * w8bi; ti = dr * w8bi + di * w8br;
                KNAME(st4)(pr + 12, br - tr); KNAME(st4)(pi + 12, bi - ti);
                KNAME(st4)(pr + 4, br + tr); KNAME(st4)(pi + 4, bi + ti);
            }
            h = 16;
        } else {
            for (int start = 0; start < half; start += 8) {
                float *pr = zr + start, *pi = zi + start;
                f4 ar = KNAME(ld4)(pr), ai = KNAME(ld4)(pi);
                f4 rr = KNAME(ld4)(pr + 4), ri = KNAME(ld4)(pi + 4);
                f4 tr = rr * w4r - ri * w4i, ti = rr * w4i + ri * w4r;
                KNAME(st4)(pr + 4, ar - tr); KNAME(st4)(pi + 4, ai - ti);
                KNAME(st4)(pr, ar + tr); KNAME(st4)(pi, ai + ti);
            }
            h = 8;
        }
    }
    for (; 2 * h < half && h < FUSE_MAX; h *= 4) {
        // Spans h and 2h (h ≥ 16, eight lanes).
        const float *t1r = stageRe + (h - 1), *t1i = stageIm + (h - 1);
        const float *t2r = stageRe + (2 * h - 1), *t2i = stageIm + (2 * h - 1);
        for (int start = 0; start < half; start += 4 * h)
            for (int k = 0; k < h; k += 8) {
                float *pr = zr + start + k, *pi = zi + start + k;
                const f8 w1r = KNAME(ld8)(t1r + k), w1i = KNAME(ld8)(t1i + k);
                f8 ar = KNAME(ld8)(pr), ai = KNAME(ld8)(pi);
                f8 br = KNAME(ld8)(pr + h), bi = KNAME(ld8)(pi + h);
                f8 cr = KNAME(ld8)(pr + 2 * h), ci = KNAME(ld8)(pi + 2 * h);
                f8 dr = KNAME(ld8)(pr + 3 * h), di = KNAME(ld8)(pi + 3 * h);
                f8 tr = br * w1r - bi * w1i, ti = br * w1i + bi * w1r;
                br = ar - tr; bi = ai - ti; ar = ar + tr; ai = ai + ti;
                tr = dr * w1r - di * w1i; ti = dr * w1i + di * w1r;
                dr = cr - tr; di = ci - ti; cr = cr + tr; ci = ci + ti;
                const f8 war = KNAME(ld8)(t2r + k), wai = KNAME(ld8)(t2i + k);
                tr = cr * war - ci * wai; ti = cr * wai + ci * war;
                KNAME(st8)(pr + 2 * h, ar - tr); KNAME(st8)(pi + 2 * h, ai - ti);
                KNAME(st8)(pr, ar + tr); KNAME(st8)(pi, ai + ti);
                const f8 wbr = KNAME(ld8)(t2r + h + k), wbi = KNAME(ld8)(t2i + h + k);
                tr = dr * wbr - di * wbi; ti = dr * wbi + di * wbr;
                KNAME(st8)(pr + 3 * h, br - tr); KNAME(st8)(pi + 3 * h, bi - ti);
                KNAME(st8)(pr + h, br + tr); KNAME(st8)(pi + h, bi + ti);
            }
    }
    for (; h < half; h *= 2) {
        // A last single stage (h ≥ 8).
        const float *tr = stageRe + (h - 1), *ti = stageIm + (h - 1);
        for (int start = 0; start < half; start += 2 * h)
            for (int k = 0; k < h; k += 8) {
                f8 wr = KNAME(ld8)(tr + k), wi = KNAME(ld8)(ti + k);
                float *pa = zr + start + k, *qa = zi + start + k;
                f8 ar = KNAME(ld8)(pa), ai = KNAME(ld8)(qa);
                f8 rr = KNAME(ld8)(pa + h), ri = KNAME(ld8)(qa + h);
                f8 br = rr * wr - ri * wi;
                f8 bi = rr * wi + ri * wr;
                KNAME(st8)(pa + h, ar - br);
                KNAME(st8)(qa + h, ai - bi);
                KNAME(st8)(pa, ar + br);
                KNAME(st8)(qa, ai + bi);
            }
    }
    KNAME(real_split)(zr, zi, re, im, half, splitRe, splitIm);
}

static KATTR void KNAME(goertzel_banks)(const float *x, int n, const double *c0, const double *c1, const double *c2,
                                        double *state) {
    const d4 c0l = KNAME(ld4d)(c0), c0h = KNAME(ld4d)(c0 + 4);
    const d4 c1l = KNAME(ld4d)(c1), c1h = KNAME(ld4d)(c1 + 4);
    const d4 c2l = KNAME(ld4d)(c2), c2h = KNAME(ld4d)(c2 + 4);
    d4 a1l = 0, a1h = 0, a2l = 0, a2h = 0;
    d4 b1l = 0, b1h = 0, b2l = 0, b2h = 0;
    d4 d1l = 0, d1h = 0, d2l = 0, d2h = 0;
    // s = (x − s2) + c·s1: x − s2 is ready a sample early, so the chain from one sample
    // to the next is one multiply and one add (the order x + c·s1 − s2 waits for both).
    for (int i = 0; i < n; i++) {
        const d4 v = (double)x[i];
        d4 t;
        t = (v - a2l) + c0l * a1l; a2l = a1l; a1l = t;
        t = (v - a2h) + c0h * a1h; a2h = a1h; a1h = t;
        t = (v - b2l) + c1l * b1l; b2l = b1l; b1l = t;
        t = (v - b2h) + c1h * b1h; b2h = b1h; b1h = t;
        t = (v - d2l) + c2l * d1l; d2l = d1l; d1l = t;
        t = (v - d2h) + c2h * d1h; d2h = d1h; d1h = t;
    }
    KNAME(st4d)(state + 0, a1l); KNAME(st4d)(state + 4, a1h);
    KNAME(st4d)(state + 8, a2l); KNAME(st4d)(state + 12, a2h);
    KNAME(st4d)(state + 16, b1l); KNAME(st4d)(state + 20, b1h);
    KNAME(st4d)(state + 24, b2l); KNAME(st4d)(state + 28, b2h);
    KNAME(st4d)(state + 32, d1l); KNAME(st4d)(state + 36, d1h);
    KNAME(st4d)(state + 40, d2l); KNAME(st4d)(state + 44, d2h);
}

static KATTR void KNAME(lag_difference)(const double *prefix, const float *acf, int n, int m, float *diff,
                                        double *diffD, float *cmnd) {
    const double acc = prefix[n];
    int t = 1;
    for (; t + 3 <= m; t += 4) {
        const d4 tv = {(double)t, (double)(t + 1), (double)(t + 2), (double)(t + 3)};
        const d4 e1 = {prefix[n - t], prefix[n - t - 1], prefix[n - t - 2], prefix[n - t - 3]};
        const d4 e2 = (d4)acc - (d4){prefix[t], prefix[t + 1], prefix[t + 2], prefix[t + 3]};
        const d4 r = {(double)acf[t], (double)acf[t + 1], (double)acf[t + 2], (double)acf[t + 3]};
        const d4 num = e1 + e2 - 2 * r;
        d4 d = num / ((d4)(double)n - tv);
        d = (num < 0) ? (d4)0 : d;
        for (int j = 0; j < 4; j++) {
            diff[t + j] = (float)d[j];
            diffD[t + j] = d[j];
        }
    }
    for (; t <= m; t++) {
        double e1 = prefix[n - t], e2 = acc - prefix[t];
        double r = (double)acf[t];
        double q = (e1 + e2 - 2 * r) / (double)(n - t);
        double d = q >= 0 ? q : 0;   // max(0, q) as Swift's max has it (NaN → 0)
        diff[t] = (float)d;
        diffD[t] = d;
    }
    // The running sum four lags at a time: a prefix sum within the four (two shifted adds),
    // then the sum before them added, so the chain from block to block is one add.
    double running = 0;
    const d4 zero = 0;
    for (t = 1; t + 3 <= m; t += 4) {
        const d4 d = KNAME(ld4d)(diffD + t);
        const d4 p1 = d + __builtin_shufflevector(d, zero, 4, 0, 1, 2);
        const d4 p2 = p1 + __builtin_shufflevector(p1, zero, 4, 5, 0, 1);
        const d4 run = (d4)running + p2;
        running = run[3];
        const d4 tv = {(double)t, (double)(t + 1), (double)(t + 2), (double)(t + 3)};
        const d4 q = d * tv / run;
        for (int j = 0; j < 4; j++) cmnd[t + j] = run[j] > 1e-30 ? (float)q[j] : 1;
    }
    for (; t <= m; t++) {
        double d = diffD[t];
        running += d;
        cmnd[t] = running > 1e-30 ? (float)(d * (double)t / running) : 1;
    }
}

static KATTR void KNAME(lag_pearson)(const double *prefix, const float *acf, int n, int m, float *pearson) {
    const double acc = prefix[n];
    int t = 1;
    for (; t + 3 <= m; t += 4) {
        const d4 e1 = {prefix[n - t], prefix[n - t - 1], prefix[n - t - 2], prefix[n - t - 3]};
        const d4 e2 = (d4)acc - (d4){prefix[t], prefix[t + 1], prefix[t + 2], prefix[t + 3]};
        const d4 r = {(double)acf[t], (double)acf[t + 1], (double)acf[t + 2], (double)acf[t + 3]};
        const d4 den = __builtin_elementwise_sqrt(e1 * e2);
        const d4 p = r / den;
        for (int j = 0; j < 4; j++) pearson[t + j] = den[j] > 1e-20 ? (float)p[j] : 0;
    }
    for (; t <= m; t++) {
        double e1 = prefix[n - t], e2 = acc - prefix[t];
        double den = __builtin_sqrt(e1 * e2);
        pearson[t] = den > 1e-20 ? (float)((double)acf[t] / den) : 0;
    }
}

/// The eight lanes' sum in a fixed order (pairs, then pairs of pairs).
KINLINE double KNAME(lanes)(f8 v) {
    float a = (v[0] + v[4]) + (v[2] + v[6]);
    float b = (v[1] + v[5]) + (v[3] + v[7]);
    return (double)(a + b);
}

static KATTR double KNAME(min_difference)(const float *x, int n, int lo, int hi) {
    double best = __builtin_inf();
    for (int t = lo; t <= hi; t++) {
        const int m = n - t;
        double total = 0;
        int i = 0;
        for (; i + 64 <= m; i += 64) {
            f8 acc = 0;
            for (int j = i; j < i + 64; j += 8) {
                f8 d = KNAME(ld8)(x + j) - KNAME(ld8)(x + j + t);
                acc += d * d;
            }
            total += KNAME(lanes)(acc);
        }
        for (; i < m; i++) {
            double d = (double)(x[i] - x[i + t]);
            total += d * d;
        }
        double v = total / (double)m;
        best = v < best ? v : best;
    }
    return best;
}

static KATTR double KNAME(energy)(const float *x, int n) {
    double total = 0;
    int i = 0;
    for (; i + 64 <= n; i += 64) {
        f8 acc = 0;
        for (int j = i; j < i + 64; j += 8) {
            f8 v = KNAME(ld8)(x + j);
            acc += v * v;
        }
        total += KNAME(lanes)(acc);
    }
    for (; i < n; i++) total += (double)x[i] * (double)x[i];
    return total;
}

static KATTR void KNAME(decimate2)(const float *x, int n, const float *taps, int ntaps, float *out) {
    const int half = ntaps / 2;
    const int m = n / 2;
    int j = 0;
    // Edges (the filter reaches outside x) one output at a time.
    for (; j < m && 2 * j - half < 0; j++) {
        float acc = 0;
        for (int k = 0; k < ntaps; k++) {
            int i = 2 * j + k - half;
            if (i >= 0 && i < n) acc += taps[k] * x[i];
        }
        out[j] = acc;
    }
    // Interior: eight outputs at a time (their inputs are every second sample: gathered
    // from two loads of eight).
    for (; j + 8 <= m && 2 * (j + 7) + ntaps - 1 - half < n; j += 8) {
        f8 acc = 0;
        for (int k = 0; k < ntaps; k++) {
            const float *p = x + 2 * j + k - half;
            f8 lo = KNAME(ld8)(p), hi = KNAME(ld8)(p + 8);
            f8 v = __builtin_shufflevector(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14);
            acc += (f8)taps[k] * v;
        }
        KNAME(st8)(out + j, acc);
    }
    for (; j < m; j++) {
        float acc = 0;
        for (int k = 0; k < ntaps; k++) {
            int i = 2 * j + k - half;
            if (i >= 0 && i < n) acc += taps[k] * x[i];
        }
        out[j] = acc;
    }
}

static KATTR void KNAME(probe_table)(const float *win, int n, double w, float *re, float *im) {
    d4 cl, sl, ch, sh;   // phasors of lanes 0…3 and 4…7
    for (int j = 0; j < 4; j++) {
        cl[j] = __builtin_cos(w * j); sl[j] = __builtin_sin(w * j);
        ch[j] = __builtin_cos(w * (j + 4)); sh[j] = __builtin_sin(w * (j + 4));
    }
    const double c8 = __builtin_cos(8 * w), s8 = __builtin_sin(8 * w);
    for (int i = 0; i < n; i += 8) {
        f8 v = KNAME(ld8)(win + i);
        d4 vl = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3), d4);
        d4 vh = __builtin_convertvector(__builtin_shufflevector(v, v, 4, 5, 6, 7), d4);
        f4 rl = __builtin_convertvector(vl * cl, f4), rh = __builtin_convertvector(vh * ch, f4);
        f4 il = __builtin_convertvector(-(vl * sl), f4), ih = __builtin_convertvector(-(vh * sh), f4);
        KNAME(st4)(re + i, rl); KNAME(st4)(re + i + 4, rh);
        KNAME(st4)(im + i, il); KNAME(st4)(im + i + 4, ih);
        d4 nl = cl * c8 - sl * s8, nh = ch * c8 - sh * s8;
        sl = cl * s8 + sl * c8; sh = ch * s8 + sh * c8;
        cl = nl; ch = nh;
        if ((i & 255) == 248) {
            d4 ml = 1 / __builtin_elementwise_sqrt(cl * cl + sl * sl);
            d4 mh = 1 / __builtin_elementwise_sqrt(ch * ch + sh * sh);
            cl *= ml; sl *= ml; ch *= mh; sh *= mh;
        }
    }
}

static KATTR void KNAME(dot_pair)(const float *x, const float *a, const float *b, int n, double *out) {
    double ta = 0, tb = 0;
    int i = 0;
    for (; i + 64 <= n; i += 64) {
        f8 sa = 0, sb = 0;
        for (int j = i; j < i + 64; j += 8) {
            f8 v = KNAME(ld8)(x + j);
            sa += v * KNAME(ld8)(a + j);
            sb += v * KNAME(ld8)(b + j);
        }
        ta += KNAME(lanes)(sa);
        tb += KNAME(lanes)(sb);
    }
    for (; i < n; i++) { ta += (double)x[i] * a[i]; tb += (double)x[i] * b[i]; }
    out[0] = ta;
    out[1] = tb;
}

static KATTR double KNAME(load_window)(const float *x, int n, float *window, double *prefix) {
    double acc = 0, total0 = 0, total1 = 0;
    prefix[0] = 0;
    for (int i = 0; i < n; i += 2) {
        const float a = x[i], b = x[i + 1];
        window[i] = a;
        window[i + 1] = b;
        const double qa = (double)a * (double)a, qb = (double)b * (double)b;
        prefix[i + 1] = acc + qa;
        acc = acc + (qa + qb);
        prefix[i + 2] = acc;
        total0 += (double)a;
        total1 += (double)b;
    }
    return total0 + total1;
}

static KATTR void KNAME(power_even)(const float *re, const float *im, int n, float *out) {
    int k = 0;
    for (; k + 8 <= n + 1; k += 8) {
        f8 r = KNAME(ld8)(re + k), i = KNAME(ld8)(im + k);
        KNAME(st8)(out + k, r * r + i * i);
    }
    for (; k <= n; k++) out[k] = re[k] * re[k] + im[k] * im[k];
    for (k = 1; k < n; k++) out[2 * n - k] = out[k];
}

/// The eight lanes added in pairs, then pairs of pairs (the new kernels' order).
KINLINE float KNAME(tree8)(f8 v) { return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])); }

/// The 2nd-order low-pass's energy in `parts` equal pieces of x[0…n−1] (`spv_low_band_energy`).
static KATTR void KNAME(low_band_energy)(const float *x, int n, int parts, const float *m, const float *b,
                                         float *state, float *out) {
    const int length = n / parts;
    const f8 c0 = b[0], c1 = b[1], c2 = b[2];
    const f8 fromY1 = KNAME(ld8)(m + 64), fromY2 = KNAME(ld8)(m + 72);
    f8 column[8];
    for (int j = 0; j < 8; j++) column[j] = KNAME(ld8)(m + 8 * j);
    float x1 = state[0], x2 = state[1], y1 = state[2], y2 = state[3];
    for (int part = 0; part < parts; part++) {
        f8 e = 0;
        for (int t = part * length; t < (part + 1) * length; t += 8) {
            const f8 now = KNAME(ld8)(x + t);
            f8 back1, back2;
            if (t >= 2) {
                back1 = KNAME(ld8)(x + t - 1);
                back2 = KNAME(ld8)(x + t - 2);
            } else {
                back1 = (f8){x1, now[0], now[1], now[2], now[3], now[4], now[5], now[6]};
                back2 = (f8){x2, x1, now[0], now[1], now[2], now[3], now[4], now[5]};
            }
            // The input's part first (it does not wait on the outputs before), in a tree, then
            // the two outputs before: four dependent operations a block.
            const f8 f = c0 * now + c1 * back1 + c2 * back2;
            const f8 u = ((column[0] * f[0] + column[1] * f[1]) + (column[2] * f[2] + column[3] * f[3])) +
                         ((column[4] * f[4] + column[5] * f[5]) + (column[6] * f[6] + column[7] * f[7]));
            const f8 y = u + (fromY1 * y1 + fromY2 * y2);
            e += y * y;
            y2 = y[6];
            y1 = y[7];
        }
        out[part] = KNAME(tree8)(e);
    }
    state[0] = x[n - 1];
    state[1] = x[n - 2];
    state[2] = y1;
    state[3] = y2;
}

/// The half-wave rectified flux of bins from…through (`spv_flux_range`).
static KATTR float KNAME(flux_range)(const float *re, const float *im, float scale, float *previous, int from,
                                     int through, float *level) {
    f8 rise = 0, sum = 0;
    const f8 s = scale;
    int k = from;
    for (; k + 8 <= through + 1; k += 8) {
        const f8 a = KNAME(ld8)(re + k), b = KNAME(ld8)(im + k);
        const f8 m = __builtin_elementwise_sqrt(a * a + b * b) * s;
        const f8 d = m - KNAME(ld8)(previous + k);
        rise += d > 0 ? d : 0;
        sum += m;
        KNAME(st8)(previous + k, m);
    }
    float tail = 0, tailSum = 0;
    for (; k <= through; k++) {
        const float m = __builtin_sqrtf(re[k] * re[k] + im[k] * im[k]) * scale;
        const float d = m - previous[k];
        tail += d > 0 ? d : 0;
        tailSum += m;
        previous[k] = m;
    }
    if (level) *level = KNAME(tree8)(sum) + tailSum;
    return KNAME(tree8)(rise) + tail;
}

/// A frame's raw flux and new energy by octave band (`spv_novelty`).
static KATTR float KNAME(novelty)(const float *m, const float *last, const float *rows, int frames, int width,
                                  float ratio, int lo, int hi, float *bands, float *fresh) {
    const f8 r8 = ratio;
    f8 rise = 0;
    float riseTail = 0, total = 0;
    int k = lo;
    while (k <= hi) {
        int band = 31 - __builtin_clz((unsigned)(k > 1 ? k : 1));
        int end = (2 << band) - 1;
        if (end > hi) end = hi;
        f8 inBand = 0;
        float tail = 0;
        int j = k;
        for (; j + 8 <= end + 1; j += 8) {
            f8 held = KNAME(ld8)(rows + j);
            for (int r = 1; r < frames; r++) {
                const f8 past = KNAME(ld8)(rows + r * width + j);
                held = past > held ? past : held;
            }
            const f8 now = KNAME(ld8)(m + j);
            const f8 d = now - KNAME(ld8)(last + j);
            rise += d > 0 ? d : 0;
            const f8 n = now - r8 * held;
            inBand += n > 0 ? n : 0;
        }
        for (; j <= end; j++) {
            float held = rows[j];
            for (int r = 1; r < frames; r++) held = rows[r * width + j] > held ? rows[r * width + j] : held;
            const float d = m[j] - last[j];
            riseTail += d > 0 ? d : 0;
            const float n = m[j] - ratio * held;
            tail += n > 0 ? n : 0;
        }
        const float sum = KNAME(tree8)(inBand) + tail;
        bands[band] += sum;
        total += sum;
        k = end + 1;
    }
    *fresh = total;
    return KNAME(tree8)(rise) + riseTail;
}

#undef KINLINE
