#ifndef SPV_FREETYPE_SHIM_H
#define SPV_FREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
/* HarfBuzz shapes with FreeType faces (hb-ft), so it shares this module: one copy of
   FreeType's declarations. */
#include <hb.h>
#include <hb-ft.h>
static inline FT_GlyphSlot spv_ft_glyph(FT_Face face) { return face->glyph; }
#endif
