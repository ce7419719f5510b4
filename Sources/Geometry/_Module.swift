// Geometry module.
