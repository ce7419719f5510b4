#ifndef SPV_FFMPEG_SHIM_H
#define SPV_FFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libavutil/error.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/imgutils.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <string.h>

/* Swift does not import function-like macros: re-export them. */
static inline int spv_averror(int e) { return AVERROR(e); }
static inline int spv_averror_eof(void) { return AVERROR_EOF; }
static inline int spv_eagain(void) { return AVERROR(EAGAIN); }
static inline int64_t spv_nopts(void) { return AV_NOPTS_VALUE; }
static inline uint8_t *spv_frame_data(const AVFrame *f, int i) { return f->data[i]; }
static inline int spv_frame_linesize(const AVFrame *f, int i) { return f->linesize[i]; }
static inline uint8_t **spv_frame_data_ptr(AVFrame *f) { return f->data; }
static inline const uint8_t **spv_frame_data_cptr(const AVFrame *f) { return (const uint8_t **)f->extended_data; }
static inline int *spv_frame_linesize_ptr(AVFrame *f) { return f->linesize; }
/* Converts rows y..<y+n of a packed picture into the same rows of a yuv420p frame, with a
   scaler made for pictures of n rows (y even: the chroma rows are y/2 on). */
static inline int spv_sws_scale_rows_420(struct SwsContext *c, const uint8_t *src, int stride, AVFrame *f, int y, int n) {
    const uint8_t *from[1] = { src + (ptrdiff_t)y * stride };
    uint8_t *to[4] = {
        f->data[0] + (ptrdiff_t)y * f->linesize[0],
        f->data[1] + (ptrdiff_t)(y / 2) * f->linesize[1],
        f->data[2] + (ptrdiff_t)(y / 2) * f->linesize[2],
        NULL,
    };
    return sws_scale(c, from, &stride, 0, n, to, f->linesize);
}
/* Copies rows y..<y+n of one yuv420p frame into another of the same size (y even). */
static inline void spv_copy_rows_420(AVFrame *to, const AVFrame *from, int y, int n) {
    for (int p = 0; p < 3; p++) {
        int r = p ? y / 2 : y, rows = p ? (y + n + 1) / 2 - y / 2 : n, bytes = p ? (to->width + 1) / 2 : to->width;
        av_image_copy_plane(to->data[p] + (ptrdiff_t)r * to->linesize[p], to->linesize[p],
                            from->data[p] + (ptrdiff_t)r * from->linesize[p], from->linesize[p], bytes, rows);
    }
}
static inline int spv_fmt_needs_global_header(const AVFormatContext *oc) {
    return (oc->oformat->flags & AVFMT_GLOBALHEADER) != 0;
}
static inline int spv_fmt_has_nofile(const AVFormatContext *oc) {
    return (oc->oformat->flags & AVFMT_NOFILE) != 0;
}
static inline AVRational spv_rational(int num, int den) { AVRational r = {num, den}; return r; }

/* A silent log callback so that libav's chatter does not reach the user's terminal. */
static inline void spv_quiet_logs(void) { av_log_set_level(AV_LOG_QUIET); }
/* Inputs never open anything but the file they name (SPEC §9). A demuxer that opens other
   resources (a playlist's entries, a concat list's files, a QuickTime reference) goes through
   AVFormatContext.io_open: refuse every such open, or (playlists allowed) allow only local
   files. `counter` (s->opaque) counts the refused opens, so the error can say why. */
static int spv_refuse_io_open(AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    (void)pb; (void)url; (void)flags; (void)options;
    if (s->opaque) *(int *)s->opaque += 1;
    return AVERROR(EPERM);
}
static int spv_local_io_open(AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    const char *proto = avio_find_protocol_name(url);
    if (!proto || strcmp(proto, "file") != 0 || (flags & AVIO_FLAG_WRITE)) {
        if (s->opaque) *(int *)s->opaque += 1;
        return AVERROR(EPERM);
    }
    AVDictionary *d = NULL;
    if (options && *options) av_dict_copy(&d, *options, 0);
    av_dict_set(&d, "protocol_whitelist", "file", 0);
    int r = avio_open2(pb, url, flags, &s->interrupt_callback, &d);
    av_dict_free(&d);
    return r;
}
static inline void spv_guard_nested_opens(AVFormatContext *s, int allow_local_files, int *counter) {
    s->opaque = counter;
    s->io_open = allow_local_files ? spv_local_io_open : spv_refuse_io_open;
}
#endif
