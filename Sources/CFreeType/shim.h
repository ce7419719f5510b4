#ifndef SPV_FREETYPE_SHIM_H
#define SPV_FREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
static inline FT_GlyphSlot spv_ft_glyph(FT_Face face) { return face->glyph; }
#endif
