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
static inline int spv_fmt_needs_global_header(const AVFormatContext *oc) {
    return (oc->oformat->flags & AVFMT_GLOBALHEADER) != 0;
}
static inline int spv_fmt_has_nofile(const AVFormatContext *oc) {
    return (oc->oformat->flags & AVFMT_NOFILE) != 0;
}
static inline AVRational spv_rational(int num, int den) { AVRational r = {num, den}; return r; }

/* A silent log callback so that libav's chatter does not reach the user's terminal. */
static inline void spv_quiet_logs(void) { av_log_set_level(AV_LOG_QUIET); }
#endif
