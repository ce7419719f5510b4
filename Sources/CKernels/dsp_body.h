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

static KATTR void KNAME(real_fft)(const float *input, float *re, float *im, int half, const int32_t *bitReverse,
                                  float *zr, float *zi, const float *stageRe, const float *stageIm,
                                  const float *splitRe, const float *splitIm) {
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
    // Split: X[k] = (Z[k] + Z*[h−k])/2 − i/2 · W^k · (Z[k] − Z*[h−k]).
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
    // The running sum is sequential; its divisions go four at a time.
    double running = 0;
    for (t = 1; t + 3 <= m; t += 4) {
        const d4 d = KNAME(ld4d)(diffD + t);
        d4 run;
        running += d[0]; run[0] = running;
        running += d[1]; run[1] = running;
        running += d[2]; run[2] = running;
        running += d[3]; run[3] = running;
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

#undef KINLINE
