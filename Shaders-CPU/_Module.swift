// Shader module.
