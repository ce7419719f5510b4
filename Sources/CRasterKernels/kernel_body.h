// One copy of the span kernels; included by raster_kernels.c once per target with
// KNAME(x) (the name suffix) and KATTR (the target attribute) defined.

static KATTR inline __attribute__((always_inline)) f8 KNAME(sel)(i8 m, f8 a, f8 b) { return (f8)(((i8)a & m) | ((i8)b & ~m)); }

static KATTR inline __attribute__((always_inline)) f8 KNAME(clamp01)(f8 v) {
    v = KNAME(sel)(v >= 0, v, (f8)0);   // NaN → 0
    return KNAME(sel)(v > 1, (f8)1, v);
}

/// ⌊v⌋ for 0 ≤ v < 2^31 (truncation).
static KATTR inline __attribute__((always_inline)) i8 KNAME(trunc8)(f8 v) { return __builtin_convertvector(v, i8); }

static KATTR inline __attribute__((always_inline)) f8 KNAME(load_f)(const float *p) { f8 v; __builtin_memcpy(&v, p, sizeof v); return v; }
static KATTR inline __attribute__((always_inline)) i8 KNAME(load_i)(const uint32_t *p) { i8 v; __builtin_memcpy(&v, p, sizeof v); return v; }
static KATTR inline __attribute__((always_inline)) void KNAME(store_f)(float *p, f8 v) { __builtin_memcpy(p, &v, sizeof v); }
static KATTR inline __attribute__((always_inline)) void KNAME(store_i)(uint32_t *p, i8 v) { __builtin_memcpy(p, &v, sizeof v); }

/// Block start for x (kept inside the row) and its coverage mask of xs…xe.
static KATTR inline __attribute__((always_inline)) int KNAME(block)(int x, int xe, int width, i8 *mask) {
    int cx = x < width - 8 ? x : width - 8;
    const i8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
    *mask = (lane >= (x - cx)) & (lane <= (xe - cx));
    return cx;
}

static KATTR void KNAME(blend_span)(uint32_t *row, int xs, int xe, int width, int ox,
                                    spv_float4 base, spv_float4 dx) {
    const f8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int x = xs; x <= xe;) {
        i8 mask;
        int cx = KNAME(block)(x, xe, width, &mask);
        f8 xo = (f8)(float)(cx - ox) + iota;
        f8 a = KNAME(clamp01)(base[3] + dx[3] * xo);
        f8 a255 = 255 * a, ia = 1 - a;
        i8 d = KNAME(load_i)(row + cx);
        f8 dr = __builtin_convertvector(d & 0xFF, f8);
        f8 dg = __builtin_convertvector((d >> 8) & 0xFF, f8);
        f8 db = __builtin_convertvector((d >> 16) & 0xFF, f8);
        i8 r = KNAME(trunc8)(KNAME(clamp01)(base[0] + dx[0] * xo) * a255 + dr * ia + 0.5f);
        i8 g = KNAME(trunc8)(KNAME(clamp01)(base[1] + dx[1] * xo) * a255 + dg * ia + 0.5f);
        i8 b = KNAME(trunc8)(KNAME(clamp01)(base[2] + dx[2] * xo) * a255 + db * ia + 0.5f);
        i8 out = r | (g << 8) | (b << 16) | (i8)0xFF000000;
        KNAME(store_i)(row + cx, (out & mask) | (d & ~mask));
        x = cx + 8;
    }
}

static KATTR void KNAME(lit_span)(uint32_t *row, float *drow, int xs, int xe, int width, int ox,
                                  spv_float4 cb, spv_float4 cdx, spv_float4 nb, spv_float4 ndx,
                                  float z0, float zdx, spv_float4 light) {
    const f8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int x = xs; x <= xe;) {
        i8 mask;
        int cx = KNAME(block)(x, xe, width, &mask);
        f8 xo = (f8)(float)(cx - ox) + iota;
        f8 z = z0 + zdx * xo;
        f8 old = KNAME(load_f)(drow + cx);
        mask &= z < old;
        if (__builtin_reduce_or(mask) != 0) {
            f8 inv = 1.0f / (nb[3] + ndx[3] * xo);
            f8 nx = (nb[0] + ndx[0] * xo) * inv, ny = (nb[1] + ndx[1] * xo) * inv, nz = (nb[2] + ndx[2] * xo) * inv;
            f8 nn = nx * nx + ny * ny + nz * nz;
            f8 dot = nx * light[0] + ny * light[1] + nz * light[2];
            f8 ndotl = dot / __builtin_elementwise_sqrt(nn);
            ndotl = KNAME(sel)((nn > 0) & (ndotl > 0), ndotl, (f8)0);
            f8 br = 0.5f + 0.5f * ndotl;   // ambient 0.5
            i8 r = KNAME(trunc8)(KNAME(clamp01)(((cb[0] + cdx[0] * xo) * inv) * br) * 255 + 0.5f);
            i8 g = KNAME(trunc8)(KNAME(clamp01)(((cb[1] + cdx[1] * xo) * inv) * br) * 255 + 0.5f);
            i8 b = KNAME(trunc8)(KNAME(clamp01)(((cb[2] + cdx[2] * xo) * inv) * br) * 255 + 0.5f);
            i8 out = r | (g << 8) | (b << 16) | (i8)0xFF000000;
            i8 d = KNAME(load_i)(row + cx);
            KNAME(store_i)(row + cx, (out & mask) | (d & ~mask));
            KNAME(store_f)(drow + cx, KNAME(sel)(mask, z, old));
        }
        x = cx + 8;
    }
}
