// Specviz module.
