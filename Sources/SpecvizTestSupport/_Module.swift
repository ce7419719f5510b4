// SpecvizTestSupport module.
