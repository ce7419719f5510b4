// Synth module.
