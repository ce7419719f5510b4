import SpecvizCore

// MediaIO's devices as the live loop's protocols (SpecvizCore/LiveIO.swift).
extension ALSAPlayback: LiveAudioOutput {}
extension ALSACapture: LiveAudioInput {}
extension AudioDecoder: InterleavedAudioSource {}
extension FramebufferSink: LiveDisplay {}
extension TerminalSink: LiveDisplay {}
