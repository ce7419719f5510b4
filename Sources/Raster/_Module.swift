// Raster module.
