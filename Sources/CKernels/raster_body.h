// One copy of the triangle kernels; compiled once per target by raster_kernels.c through
// twice.h, with KNAME(x) (the name suffix) and KATTR (the target attribute) defined.

#define KINLINE static KATTR inline __attribute__((always_inline))

KINLINE f8 KNAME(sel)(i8 m, f8 a, f8 b) { return (f8)(((i8)a & m) | ((i8)b & ~m)); }

KINLINE f8 KNAME(clamp01)(f8 v) {
    v = KNAME(sel)(v >= 0, v, (f8)0);   // NaN → 0
    return KNAME(sel)(v > 1, (f8)1, v);
}

/// ⌊v⌋ for 0 ≤ v < 2^31 (truncation).
KINLINE i8 KNAME(trunc8)(f8 v) { return __builtin_convertvector(v, i8); }

KINLINE f8 KNAME(load_f)(const float *p) { f8 v; __builtin_memcpy(&v, p, sizeof v); return v; }
KINLINE i8 KNAME(load_i)(const uint32_t *p) { i8 v; __builtin_memcpy(&v, p, sizeof v); return v; }
KINLINE void KNAME(store_f)(float *p, f8 v) { __builtin_memcpy(p, &v, sizeof v); }
KINLINE void KNAME(store_i)(uint32_t *p, i8 v) { __builtin_memcpy(p, &v, sizeof v); }

/// Opaque RGBA8 from channel values 0…255 (as integers) in the lanes of `mask`, `d` (the
/// pixels already there) in the others.
KINLINE i8 KNAME(pack)(i8 d, i8 mask, i8 r, i8 g, i8 b) {
    i8 out = r | (g << 8) | (b << 16) | (i8)0xFF000000;
    return (out & mask) | (d & ~mask);
}

/// `pack` stored at p.
KINLINE void KNAME(put)(uint32_t *p, i8 d, i8 mask, i8 r, i8 g, i8 b) { KNAME(store_i)(p, KNAME(pack)(d, mask, r, g, b)); }

/// The red, green and blue bytes of 8 pixels as floats 0…255.
KINLINE void KNAME(unpack)(i8 d, f8 *r, f8 *g, f8 *b) {
    *r = __builtin_convertvector(d & 0xFF, f8);
    *g = __builtin_convertvector((d >> 8) & 0xFF, f8);
    *b = __builtin_convertvector((d >> 16) & 0xFF, f8);
}

/// Block start for x (kept inside the row) and its coverage mask of x…xe.
KINLINE int KNAME(block)(int x, int xe, int width, i8 *mask) {
    int cx = x < width - 8 ? x : width - 8;
    const i8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
    *mask = (lane >= (x - cx)) & (lane <= (xe - cx));
    return cx;
}

/// The row walk of Triangle.swift (`EdgeWalk`): per edge, F = ⌊(row + stepY·py) / s⌋ and its
/// remainder, stepped exactly from row to row.
typedef struct { int64_t q, m; } KNAME(walk);

KINLINE KNAME(walk) KNAME(walk_start)(const spv_edge *e, int py) {
    KNAME(walk) w;
    int64_t r = e->row + e->stepY * (int64_t)py;
    if (e->s > 0) {
        // ⌊r / s⌋: the Double quotient is within one of it (|r|, s < 2^53); one step each way.
        int64_t q = (int64_t)((double)r / (double)e->s);
        int64_t m = r - q * e->s;
        if (m < 0) { q -= 1; m += e->s; }
        if (m >= e->s) { q += 1; m -= e->s; }
        w.q = q;
        w.m = m;
    } else {
        w.q = r;
        w.m = 0;
    }
    return w;
}

/// Narrows [lo, hi] to edge e on the current row; 0 when the row is outside it.
KINLINE int KNAME(walk_clamp)(const spv_edge *e, const KNAME(walk) *w, int64_t *lo, int64_t *hi) {
    if (e->stepX > 0) {
        if (-w->q > *lo) *lo = -w->q;
    } else if (e->stepX < 0) {
        if (w->q < *hi) *hi = w->q;
    } else if (w->q < 0) {
        return 0;
    }
    return 1;
}

KINLINE void KNAME(walk_step)(const spv_edge *e, KNAME(walk) *w) {
    if (e->s > 0) {
        // Branch-free: whether the remainder wraps is data-dependent (mispredicted often).
        int64_t m = w->m + e->dm;
        int64_t wrap = -(int64_t)(m >= e->s);
        w->m = m - (e->s & wrap);
        w->q += e->dq - wrap;
    } else {
        w->q += e->stepY;
    }
}

/// for (py = ry0 … ry1) with xs, xe the covered pixels of the row (rows without any skipped).
#define KROWS(t, ry0, ry1, ...)                                                                    \
    do {                                                                                          \
        KNAME(walk) w0_ = KNAME(walk_start)(&(t)->e[0], ry0);                                     \
        KNAME(walk) w1_ = KNAME(walk_start)(&(t)->e[1], ry0);                                     \
        KNAME(walk) w2_ = KNAME(walk_start)(&(t)->e[2], ry0);                                     \
        for (int py = ry0; py <= ry1; py++) {                                                     \
            int64_t lo_ = (t)->minX, hi_ = (t)->maxX;                                             \
            if (KNAME(walk_clamp)(&(t)->e[0], &w0_, &lo_, &hi_) &&                                \
                KNAME(walk_clamp)(&(t)->e[1], &w1_, &lo_, &hi_) &&                                \
                KNAME(walk_clamp)(&(t)->e[2], &w2_, &lo_, &hi_) && lo_ <= hi_) {                  \
                int xs = (int)lo_, xe = (int)hi_;                                                 \
                __VA_ARGS__                                                                       \
            }                                                                                     \
            KNAME(walk_step)(&(t)->e[0], &w0_);                                                   \
            KNAME(walk_step)(&(t)->e[1], &w1_);                                                   \
            KNAME(walk_step)(&(t)->e[2], &w2_);                                                   \
        }                                                                                         \
    } while (0)

static KATTR void KNAME(fill32)(uint32_t *p, uint32_t value, int64_t n) {
    const i8 v = (i8)(int)value;
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        KNAME(store_i)(p + i, v);
        KNAME(store_i)(p + i + 8, v);
        KNAME(store_i)(p + i + 16, v);
        KNAME(store_i)(p + i + 24, v);
    }
    for (; i + 8 <= n; i += 8) KNAME(store_i)(p + i, v);
    for (; i < n; i++) p[i] = value;
}

static KATTR void KNAME(fill_triangle)(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width,
                                       uint32_t pixel) {
    KROWS(t, ry0, ry1, {
        uint32_t *p = color + (int64_t)py * width;
        for (int x = xs; x <= xe; x++) p[x] = pixel;
    });
}

static KATTR void KNAME(blend_triangle)(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width,
                                        spv_float4 base, spv_float4 dy, spv_float4 dx) {
    const f8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
    const f8 dr = dx.x, dg = dx.y, db = dx.z, da = dx.w;
    const int ox = t->minX, oy = t->minY;
    if (base.w == 1.0f && dx.w == 0.0f && dy.w == 0.0f) {
        // Opaque (alpha exactly 1 everywhere, as in bar and spectrogram gradients): the blend
        // below gives the colour itself, bit for bit (x·255 + d·0 + 0.5 = x·255 + 0.5 for a
        // finite d ≥ 0), so the pixels under it are not unpacked.
        KROWS(t, ry0, ry1, {
            uint32_t *row = color + (int64_t)py * width;
            spv_float4 c = base + dy * (float)(py - oy);
            const f8 cr = c.x, cg = c.y, cb = c.z;
            for (int x = xs; x <= xe;) {
                i8 mask;
                int cx = KNAME(block)(x, xe, width, &mask);
                f8 xo = (f8)(float)(cx - ox) + iota;
                i8 r = KNAME(trunc8)(KNAME(clamp01)(cr + dr * xo) * 255 + 0.5f);
                i8 g = KNAME(trunc8)(KNAME(clamp01)(cg + dg * xo) * 255 + 0.5f);
                i8 b = KNAME(trunc8)(KNAME(clamp01)(cb + db * xo) * 255 + 0.5f);
                KNAME(put)(row + cx, KNAME(load_i)(row + cx), mask, r, g, b);
                x = cx + 8;
            }
        });
        return;
    }
    if (dx.x == 0.0f && dx.y == 0.0f && dx.z == 0.0f && dx.w == 0.0f) {
        // One colour along each row (a flat colour, or a vertical gradient such as the fill
        // under a curve): its premultiplied part is computed once per row, by the very
        // operations of the general case below (c + 0·xo = c).
        KROWS(t, ry0, ry1, {
            uint32_t *row = color + (int64_t)py * width;
            spv_float4 c = base + dy * (float)(py - oy);
            const f8 a = KNAME(clamp01)((f8)c.w), a255 = 255 * a, ia = 1 - a;
            const f8 kr = KNAME(clamp01)((f8)c.x) * a255, kg = KNAME(clamp01)((f8)c.y) * a255;
            const f8 kb = KNAME(clamp01)((f8)c.z) * a255;
            for (int x = xs; x <= xe;) {
                i8 mask;
                int cx = KNAME(block)(x, xe, width, &mask);
                i8 d = KNAME(load_i)(row + cx);
                f8 fr, fg, fb;
                KNAME(unpack)(d, &fr, &fg, &fb);
                i8 r = KNAME(trunc8)(kr + fr * ia + 0.5f);
                i8 g = KNAME(trunc8)(kg + fg * ia + 0.5f);
                i8 b = KNAME(trunc8)(kb + fb * ia + 0.5f);
                KNAME(put)(row + cx, d, mask, r, g, b);
                x = cx + 8;
            }
        });
        return;
    }
    KROWS(t, ry0, ry1, {
        uint32_t *row = color + (int64_t)py * width;
        spv_float4 c = base + dy * (float)(py - oy);
        const f8 cr = c.x, cg = c.y, cb = c.z, ca = c.w;
        for (int x = xs; x <= xe;) {
            i8 mask;
            int cx = KNAME(block)(x, xe, width, &mask);
            f8 xo = (f8)(float)(cx - ox) + iota;
            f8 a = KNAME(clamp01)(ca + da * xo);
            f8 a255 = 255 * a, ia = 1 - a;
            i8 d = KNAME(load_i)(row + cx);
            f8 fr, fg, fb;
            KNAME(unpack)(d, &fr, &fg, &fb);
            i8 r = KNAME(trunc8)(KNAME(clamp01)(cr + dr * xo) * a255 + fr * ia + 0.5f);
            i8 g = KNAME(trunc8)(KNAME(clamp01)(cg + dg * xo) * a255 + fg * ia + 0.5f);
            i8 b = KNAME(trunc8)(KNAME(clamp01)(cb + db * xo) * a255 + fb * ia + 0.5f);
            KNAME(put)(row + cx, d, mask, r, g, b);
            x = cx + 8;
        }
    });
}

/// Largest depth in tile (tx, ty), recomputed if dirty.
KINLINE float KNAME(tile_max)(spv_hiz *hiz, int tx, int ty, const float *depth, int width) {
    int i = ty * hiz->tilesX + tx;
    if (!hiz->dirty[i]) return hiz->maxDepth[i];
    int y0 = ty * 8, y1 = y0 + 8 < hiz->height ? y0 + 8 : hiz->height;
    int x0 = tx * 8;
    float m;
    if (x0 + 8 <= width) {
        f8 v = KNAME(load_f)(depth + (int64_t)y0 * width + x0);
        for (int y = y0 + 1; y < y1; y++) {
            f8 d = KNAME(load_f)(depth + (int64_t)y * width + x0);
            v = KNAME(sel)(d > v, d, v);
        }
        m = v[0];
        for (int k = 1; k < 8; k++) m = v[k] > m ? v[k] : m;
    } else {
        m = depth[(int64_t)y0 * width + x0];
        for (int y = y0; y < y1; y++)
            for (int x = x0; x < width; x++) {
                float d = depth[(int64_t)y * width + x];
                m = d > m ? d : m;
            }
    }
    hiz->maxDepth[i] = m;
    hiz->dirty[i] = 0;
    return m;
}

/// True when the triangle's rows ry0…ry1 lie behind every depth already in their tiles.
/// The triangle's least depth is taken at its bounding box corners with the kernel's own
/// arithmetic, less a margin for rounding (1e-6 of the terms' magnitude, far above the few
/// ulps the plane evaluation can be off), so the test never hides a pixel that would pass.
KINLINE int KNAME(hidden)(const spv_triangle *t, int ry0, int ry1, const float *depth, int width, spv_hiz *hiz) {
    float fy0 = (float)(ry0 - t->minY), fy1 = (float)(ry1 - t->minY), xo1 = (float)(t->maxX - t->minX);
    float a = t->zBase + t->zdy * fy0, b = t->zBase + t->zdy * fy1;
    float a1 = a + t->zdx * xo1, b1 = b + t->zdx * xo1;
    float zmin = a < b ? a : b;
    zmin = a1 < zmin ? a1 : zmin;
    zmin = b1 < zmin ? b1 : zmin;
    float mag = __builtin_fabsf(t->zBase) + __builtin_fabsf(t->zdy * fy1) + __builtin_fabsf(t->zdx * xo1);
    zmin -= 1e-6f * mag;
    for (int ty = ry0 >> 3; ty <= ry1 >> 3; ty++)
        for (int tx = t->minX >> 3; tx <= t->maxX >> 3; tx++)
            if (!(zmin >= KNAME(tile_max)(hiz, tx, ty, depth, width))) return 0;
    return 1;
}

/// The colour of a lit triangle's lanes at column offsets xo from minX, given each lane's
/// row values of the normal/w, 1/w and colour/w planes (base + dy·(py − minY)):
/// perspective-correct colour, Lambert towards `light` with ambient 0.5, as bytes 0…255.
KINLINE void KNAME(shade)(const spv_triangle *t, f8 xo, f8 rnx, f8 rny, f8 rnz, f8 rnw, f8 rcx, f8 rcy, f8 rcz,
                          spv_float4 light, i8 *r, i8 *g, i8 *b) {
    f8 inv = 1.0f / (rnw + t->ndx.w * xo);
    // The normal is used as normal/w: 1/w > 0 (after near clipping) and the shading
    // normalises it, so the divide by 1/w is left out.
    f8 nx = rnx + t->ndx.x * xo, ny = rny + t->ndx.y * xo, nz = rnz + t->ndx.z * xo;
    f8 nn = nx * nx + ny * ny + nz * nz;
    f8 dot = nx * light.x + ny * light.y + nz * light.z;
    f8 ndotl = dot / __builtin_elementwise_sqrt(nn);
    ndotl = KNAME(sel)((nn > 0) & (ndotl > 0), ndotl, (f8)0);
    f8 br = 0.5f + 0.5f * ndotl;   // ambient 0.5
    *r = KNAME(trunc8)(KNAME(clamp01)(((rcx + t->cdx.x * xo) * inv) * br) * 255 + 0.5f);
    *g = KNAME(trunc8)(KNAME(clamp01)(((rcy + t->cdx.y * xo) * inv) * br) * 255 + 0.5f);
    *b = KNAME(trunc8)(KNAME(clamp01)(((rcz + t->cdx.z * xo) * inv) * br) * 255 + 0.5f);
}

/// One 8-pixel block of a lit triangle at (cx…cx+7, py), in the lanes of `mask`.
KINLINE void KNAME(lit_block)(const spv_triangle *t, int py, int cx, i8 mask, uint32_t *row, float *drow,
                              float z0, spv_float4 c, spv_float4 n, spv_float4 light, spv_hiz *hiz) {
    const f8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
    f8 xo = (f8)(float)(cx - t->minX) + iota;
    f8 z = z0 + t->zdx * xo;
    f8 old = KNAME(load_f)(drow + cx);
    mask &= z < old;
    if (__builtin_reduce_or(mask) == 0) return;
    i8 r, g, b;
    KNAME(shade)(t, xo, n.x, n.y, n.z, n.w, c.x, c.y, c.z, light, &r, &g, &b);
    KNAME(put)(row + cx, KNAME(load_i)(row + cx), mask, r, g, b);
    KNAME(store_f)(drow + cx, KNAME(sel)(mask, z, old));
    if (hiz) {
        uint8_t *dirty = hiz->dirty + (py >> 3) * hiz->tilesX;
        dirty[cx >> 3] = 1;
        dirty[(cx + 7) >> 3] = 1;
    }
}

/// Row py of a lit triangle, pixels xs…xe, in 8-pixel blocks.
KINLINE void KNAME(lit_span)(const spv_triangle *t, int py, int xs, int xe, uint32_t *color, float *depth, int width,
                             spv_float4 light, spv_hiz *hiz) {
    uint32_t *row = color + (int64_t)py * width;
    float *drow = depth + (int64_t)py * width;
    float fy = (float)(py - t->minY);
    float z0 = t->zBase + t->zdy * fy;
    spv_float4 c = t->cBase + t->cdy * fy, n = t->nBase + t->ndy * fy;
    for (int x = xs; x <= xe;) {
        i8 mask;
        int cx = KNAME(block)(x, xe, width, &mask);
        KNAME(lit_block)(t, py, cx, mask, row, drow, z0, c, n, light, hiz);
        x = cx + 8;
    }
}

/// Two 4-pixel half-blocks of a lit triangle in one step: lanes 0–3 are (cxA…cxA+3, pyA),
/// lanes 4–7 (cxB…cxB+3, pyB) with pyA ≠ pyB, in the lanes of `mask` (cxA, cxB ≤
/// width − 4). Every lane is computed with the very operations of `lit_block` for its own
/// row and column, so the pixels are those of single-row blocks.
KINLINE void KNAME(lit_pair)(const spv_triangle *t, int pyA, int cxA, int pyB, int cxB, i8 mask, uint32_t *color,
                             float *depth, int width, spv_float4 light, spv_hiz *hiz) {
    const f8 lanex = {0, 1, 2, 3, 0, 1, 2, 3};
    const i8 upper = {0, 0, 0, 0, -1, -1, -1, -1};
    const f8 xo = KNAME(sel)(upper, (f8)(float)(cxB - t->minX), (f8)(float)(cxA - t->minX)) + lanex;
    const f8 fy = KNAME(sel)(upper, (f8)(float)(pyB - t->minY), (f8)(float)(pyA - t->minY));
    uint32_t *pa = color + (int64_t)pyA * width + cxA, *pb = color + (int64_t)pyB * width + cxB;
    float *da = depth + (int64_t)pyA * width + cxA, *db = depth + (int64_t)pyB * width + cxB;
    f4 dlo, dhi;
    __builtin_memcpy(&dlo, da, 16);
    __builtin_memcpy(&dhi, db, 16);
    f8 old = __builtin_shufflevector(dlo, dhi, 0, 1, 2, 3, 4, 5, 6, 7);
    f8 z = (t->zBase + t->zdy * fy) + t->zdx * xo;
    mask &= z < old;
    if (__builtin_reduce_or(mask) == 0) return;
    i8 r, g, b;
    KNAME(shade)(t, xo, t->nBase.x + t->ndy.x * fy, t->nBase.y + t->ndy.y * fy, t->nBase.z + t->ndy.z * fy,
                 t->nBase.w + t->ndy.w * fy, t->cBase.x + t->cdy.x * fy, t->cBase.y + t->cdy.y * fy,
                 t->cBase.z + t->cdy.z * fy, light, &r, &g, &b);
    i4 clo, chi;
    __builtin_memcpy(&clo, pa, 16);
    __builtin_memcpy(&chi, pb, 16);
    i8 d = __builtin_shufflevector(clo, chi, 0, 1, 2, 3, 4, 5, 6, 7);
    i8 out = KNAME(pack)(d, mask, r, g, b);
    f8 nz8 = KNAME(sel)(mask, z, old);
    i4 olo = __builtin_shufflevector(out, out, 0, 1, 2, 3), ohi = __builtin_shufflevector(out, out, 4, 5, 6, 7);
    f4 zlo = __builtin_shufflevector(nz8, nz8, 0, 1, 2, 3), zhi = __builtin_shufflevector(nz8, nz8, 4, 5, 6, 7);
    __builtin_memcpy(pa, &olo, 16);
    __builtin_memcpy(pb, &ohi, 16);
    __builtin_memcpy(da, &zlo, 16);
    __builtin_memcpy(db, &zhi, 16);
    if (hiz) {
        uint8_t *dirtyA = hiz->dirty + (pyA >> 3) * hiz->tilesX, *dirtyB = hiz->dirty + (pyB >> 3) * hiz->tilesX;
        dirtyA[cxA >> 3] = 1;
        dirtyA[(cxA + 3) >> 3] = 1;
        dirtyB[cxB >> 3] = 1;
        dirtyB[(cxB + 3) >> 3] = 1;
    }
}

/// |v| < 2^30.
KINLINE int KNAME(small)(int64_t v) { return v > -(1LL << 30) && v < (1LL << 30); }

static KATTR void KNAME(lit_triangle)(const spv_triangle *tp, int ry0, int ry1, uint32_t *color, float *depth,
                                      int width, spv_float4 light, spv_hiz *hiz) {
    if (hiz && KNAME(hidden)(tp, ry0, ry1, depth, width, hiz)) return;
    // A local copy: the pixel stores cannot alias it, so its fields stay in registers
    // instead of being reloaded after every block.
    const spv_triangle copy = *tp, *t = &copy;
    const int oy = t->minY;
    if (t->maxX - t->minX < 8) {
        // Narrow triangle: one block per row at a fixed column, coverage straight from the
        // three edge functions in 32-bit lanes (exact when every value in the block's
        // rectangle is below 2^30, checked at its corners; E is linear in px and py).
        int cx = t->minX < width - 8 ? t->minX : width - 8;
        int64_t e0[3];
        int fits = 1;
        for (int k = 0; k < 3; k++) {
            const spv_edge *e = &t->e[k];
            e0[k] = e->row + e->stepX * cx + e->stepY * (int64_t)ry0;
            int64_t e1 = e0[k] + e->stepY * (int64_t)(ry1 - ry0);
            fits &= KNAME(small)(e0[k]) & KNAME(small)(e0[k] + 7 * e->stepX) & KNAME(small)(e1) &
                    KNAME(small)(e1 + 7 * e->stepX) & KNAME(small)(e->stepY) & KNAME(small)(8 * e->stepX);
        }
        if (fits) {
            const i8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
            const i8 inside = (lane >= t->minX - cx) & (lane <= t->maxX - cx);
            i8 ea = (int)e0[0] + (int)t->e[0].stepX * lane;
            i8 eb = (int)e0[1] + (int)t->e[1].stepX * lane;
            i8 ec = (int)e0[2] + (int)t->e[2].stepX * lane;
            const int sa = (int)t->e[0].stepY, sb = (int)t->e[1].stepY, sc = (int)t->e[2].stepY;
            for (int py = ry0; py <= ry1; py++) {
                // An empty row (often, in a sliver) is left to the depth test's branch: one
                // unpredictable branch per row instead of two.
                i8 mask = inside & (ea >= 0) & (eb >= 0) & (ec >= 0);
                float fy = (float)(py - oy);
                KNAME(lit_block)(t, py, cx, mask, color + (int64_t)py * width, depth + (int64_t)py * width,
                                 t->zBase + t->zdy * fy, t->cBase + t->cdy * fy, t->nBase + t->ndy * fy, light, hiz);
                ea += sa; eb += sb; ec += sc;
            }
            return;
        }
    }
    // Spans of at most 4 pixels (a tilted sliver) are paired, two rows per block.
    const i8 lx = {0, 1, 2, 3, 0, 1, 2, 3}, upper = {0, 0, 0, 0, -1, -1, -1, -1};
    int pending = -1, pxs = 0, pxe = 0;
    KROWS(t, ry0, ry1, {
        if (xe - xs < 4 && pending < 0) {
            pending = py; pxs = xs; pxe = xe;
        } else if (xe - xs < 4) {
            int ca = pxs < width - 4 ? pxs : width - 4, cb = xs < width - 4 ? xs : width - 4;
            i8 lo = (upper & (xs - cb)) | (~upper & (pxs - ca)), hi = (upper & (xe - cb)) | (~upper & (pxe - ca));
            KNAME(lit_pair)(t, pending, ca, py, cb, (lx >= lo) & (lx <= hi), color, depth, width, light, hiz);
            pending = -1;
        } else {
            KNAME(lit_span)(t, py, xs, xe, color, depth, width, light, hiz);
        }
    });
    if (pending >= 0) KNAME(lit_span)(t, pending, pxs, pxe, color, depth, width, light, hiz);
}


/// v·256 rounded half away from zero: v·256 is a float, exact in double, and so is ±0.5.
KINLINE int64_t KNAME(snap)(float v) {
    double d = (double)(v * 256.0f);
    return (int64_t)(d + (d >= 0 ? 0.5 : -0.5));
}

/// A vertex's screen y (down, pixel centres at +0.5) after the perspective divide: one
/// expression for triangle setup and for `moved_rows`, so both round it alike.
KINLINE float KNAME(screen_y)(spv_float4 p, float iw, float fh) {
    return (1.0f - p.y * iw) * 0.5f * fh;
}

/// ⌊a / b⌋ for b > 0 and |a|, b < 2^53: the double quotient is within one of it.
KINLINE int64_t KNAME(floor_div_pos)(int64_t a, int64_t b) {
    int64_t q = (int64_t)((double)a / (double)b);
    int64_t r = a - q * b;
    if (r < 0) { q -= 1; r += b; }
    if (r >= b) q += 1;
    return q;
}

/// The edge from a to b with its interior on the positive side (see spv_edge).
KINLINE spv_edge KNAME(edge)(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
    int64_t dx = bx - ax, dy = by - ay;
    // E(P) = dx·(Py − ay) − dy·(Px − ax) with P = (256·px + 128, 256·py + 128); the top-left
    // rule's bias (−1 off top-left edges) folded into row.
    int topLeft = dy < 0 || (dy == 0 && dx > 0);
    spv_edge e;
    e.row = dx * (128 - ay) + dy * (ax - 128) + (topLeft ? 0 : -1);
    e.stepX = -256 * dy;
    e.stepY = 256 * dx;
    e.s = e.stepX < 0 ? -e.stepX : e.stepX;
    e.dq = e.s > 0 ? KNAME(floor_div_pos)(e.stepY, e.s) : 0;
    e.dm = e.stepY - e.dq * e.s;
    return e;
}

/// E(px, py) of the edge from a to b without the bias.
KINLINE int64_t KNAME(unbiased)(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py) {
    return (bx - ax) * (256 * py + 128 - ay) - (by - ay) * (256 * px + 128 - ax);
}

KINLINE int64_t KNAME(min3)(int64_t a, int64_t b, int64_t c) { int64_t m = a < b ? a : b; return m < c ? m : c; }
KINLINE int64_t KNAME(max3)(int64_t a, int64_t b, int64_t c) { int64_t m = a > b ? a : b; return m > c ? m : c; }

static KATTR int KNAME(setup_triangle)(const spv_vertex *a, const spv_vertex *b, const spv_vertex *c, int lit,
                                       int check, int width, int height, spv_triangle *out) {
    const spv_vertex *v[3] = {a, b, c};
    if (check) {
        // Finite (position + colour), then inside the guard band and, lit, the near and far planes.
        for (int k = 0; k < 3; k++) {
            spv_float4 s = v[k]->position + v[k]->color;
            if (!(__builtin_isfinite(s.x) && __builtin_isfinite(s.y) && __builtin_isfinite(s.z) && __builtin_isfinite(s.w)))
                return SPV_SETUP_NOT_FINITE;
        }
        for (int k = 0; k < 3; k++) {
            spv_float4 p = v[k]->position;
            float g = (float)SPV_GUARD_BAND * p.w;
            if ((lit && (p.z < 0 || p.w - p.z < 0)) || g - p.x < 0 || g + p.x < 0 || g - p.y < 0 || g + p.y < 0)
                return SPV_SETUP_CLIP;
        }
    }
    // Perspective divide and viewport (y down, pixel centres at +0.5).
    float fw = (float)width, fh = (float)height;
    float px[3], py[3], pz[3], iw[3];
    spv_float4 col[3], nor[3];
    for (int k = 0; k < 3; k++) {
        spv_float4 p = v[k]->position;
        iw[k] = 1.0f / p.w;
        px[k] = (p.x * iw[k] + 1.0f) * 0.5f * fw;
        py[k] = KNAME(screen_y)(p, iw[k], fh);
        pz[k] = p.z * iw[k];
        if (lit) {
            col[k] = v[k]->color * iw[k];
            spv_float4 n = v[k]->normal;
            nor[k] = (spv_float4){n.x * iw[k], n.y * iw[k], n.z * iw[k], iw[k]};
        } else {
            col[k] = v[k]->color;
            nor[k] = (spv_float4)0;
        }
    }
    int64_t x0 = KNAME(snap)(px[0]), y0 = KNAME(snap)(py[0]);
    int64_t x1 = KNAME(snap)(px[1]), y1 = KNAME(snap)(py[1]);
    int64_t x2 = KNAME(snap)(px[2]), y2 = KNAME(snap)(py[2]);
    int64_t area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
    if (area == 0) return 0;
    int i1 = 1, i2 = 2;
    if (area < 0) {
        // Both windings are drawn: swap v1 and v2 so the interior is positive.
        int64_t t = x1; x1 = x2; x2 = t;
        t = y1; y1 = y2; y2 = t;
        i1 = 2; i2 = 1;
        area = -area;
    }
    // Pixel bounding box of the centres that can be inside (⌈(m − 128) / 256⌉, ⌊…⌋).
    int64_t bx0 = -((128 - KNAME(min3)(x0, x1, x2)) >> 8), bx1 = (KNAME(max3)(x0, x1, x2) - 128) >> 8;
    int64_t by0 = -((128 - KNAME(min3)(y0, y1, y2)) >> 8), by1 = (KNAME(max3)(y0, y1, y2) - 128) >> 8;
    int64_t cx0 = bx0 > 0 ? bx0 : 0, cx1 = bx1 < width - 1 ? bx1 : width - 1;
    int64_t cy0 = by0 > 0 ? by0 : 0, cy1 = by1 < height - 1 ? by1 : height - 1;
    if (cx0 > cx1 || cy0 > cy1) return 0;
    out->e[0] = KNAME(edge)(x1, y1, x2, y2);   // opposite v0 → weight of v0
    out->e[1] = KNAME(edge)(x2, y2, x0, y0);   // opposite v1
    out->e[2] = KNAME(edge)(x0, y0, x1, y1);   // opposite v2
    // Barycentric weights λ1, λ2 at the anchor pixel and their steps, exact in double (the
    // unbiased edge values are integers below 2^53).
    double invArea = 1.0 / (double)area;
    float l1 = (float)((double)KNAME(unbiased)(x2, y2, x0, y0, cx0, cy0) * invArea);
    float l2 = (float)((double)KNAME(unbiased)(x0, y0, x1, y1, cx0, cy0) * invArea);
    float l1x = (float)((double)out->e[1].stepX * invArea), l2x = (float)((double)out->e[2].stepX * invArea);
    float l1y = (float)((double)out->e[1].stepY * invArea), l2y = (float)((double)out->e[2].stepY * invArea);
    // Attributes as a0 + (a1 − a0)·λ1 + (a2 − a0)·λ2: a constant attribute stays exact.
    spv_float4 c1 = col[i1] - col[0], c2 = col[i2] - col[0];
    spv_float4 n1 = nor[i1] - nor[0], n2 = nor[i2] - nor[0];
    float z1 = pz[i1] - pz[0], z2 = pz[i2] - pz[0];
    out->cBase = col[0] + c1 * l1 + c2 * l2;
    out->cdx = c1 * l1x + c2 * l2x;
    out->cdy = c1 * l1y + c2 * l2y;
    out->nBase = nor[0] + n1 * l1 + n2 * l2;
    out->ndx = n1 * l1x + n2 * l2x;
    out->ndy = n1 * l1y + n2 * l2y;
    out->zBase = pz[0] + z1 * l1 + z2 * l2;
    out->zdx = z1 * l1x + z2 * l2x;
    out->zdy = z1 * l1y + z2 * l2y;
    // Each pair in one 8-byte store: the caller reads minY and maxY back at once
    // (TriangleStore's row ranges), which two 4-byte stores cannot forward to.
    const uint64_t xs = (uint64_t)(uint32_t)cx0 | (uint64_t)(uint32_t)cx1 << 32;
    const uint64_t ys = (uint64_t)(uint32_t)cy0 | (uint64_t)(uint32_t)cy1 << 32;
    __builtin_memcpy(&out->minX, &xs, sizeof xs);
    __builtin_memcpy(&out->minY, &ys, sizeof ys);
    out->lit = lit ? 1 : 0;
    int constant = c1.x == 0 && c1.y == 0 && c1.z == 0 && c1.w == 0 && c2.x == 0 && c2.y == 0 && c2.z == 0 && c2.w == 0;
    out->flat = !lit && constant ? 1 : 0;
    return 1;
}

#undef KROWS
#undef KINLINE

/// See spv_moved_rows_2d.
static KATTR int KNAME(moved_rows)(const char *a, const char *b, int n, int height, int *rows) {
    const int64_t top = 0, bottom = (int64_t)height * 256;
    const float fh = (float)height;
    int64_t shift = *rows == INT_MIN ? INT64_MIN : (int64_t)*rows * 256;
    for (int k = 0; k < n; k++, a += 32, b += 32) {
        // x and the colour bit for bit; the clip position is (x, y, 0, 1).
        uint32_t xa, xb;
        memcpy(&xa, a, 4);
        memcpy(&xb, b, 4);
        if (xa != xb || memcmp(a + 16, b + 16, 16) != 0) return 0;
        float ya0, yb0;
        memcpy(&ya0, a + 4, 4);
        memcpy(&yb0, b + 4, 4);
        int64_t ya = KNAME(snap)(KNAME(screen_y)((spv_float4){0, ya0, 0, 1}, 1.0f / 1.0f, fh));
        int64_t yb = KNAME(snap)(KNAME(screen_y)((spv_float4){0, yb0, 0, 1}, 1.0f / 1.0f, fh));
        if (ya < top || ya > bottom || yb < top || yb > bottom) return 0;
        if (shift == INT64_MIN) {
            if ((yb - ya) % 256 != 0) return 0;
            shift = yb - ya;
        } else if (yb - ya != shift) {
            return 0;
        }
    }
    if (shift == INT64_MIN) return 0;
    *rows = (int)(shift / 256);
    return 1;
}
