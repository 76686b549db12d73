import ArgumentParser
import CDStore
import Foundation

/// What the running program links beyond the lean command line: the web server of `serve` and the reader of
/// SwiftData sources.
///
/// `cdstore-full` has both and passes them to ``CommandLineRunner/run(_:program:)``; the lean `cdstore` has
/// neither. Which program runs a command is decided once, after its arguments are parsed and before anything
/// runs (``CommandLineRunner``): a command that needs what the lean program lacks is handed over whole to
/// `cdstore-full` (docs/decisions/0015-library-1.0.md).
public struct Program: Sendable {
    /// The web server of `cdstore serve`; nil in the lean program.
    public var server: (any StoreServing)?
    /// The model readers: ``ModelFile/Readers/standard`` in the lean program; with SwiftData sources in
    /// `cdstore-full`.
    public var modelReaders: ModelFile.Readers

    /// A program with these parts.
    public init(server: (any StoreServing)?, modelReaders: ModelFile.Readers) {
        self.server = server
        self.modelReaders = modelReaders
    }

    /// The lean `cdstore`: no web server, no Swift source reader.
    public static let lean = Program(server: nil, modelReaders: .standard)

    /// Whether this program has everything any command needs.
    var isFull: Bool { server != nil && modelReaders.readsSwiftData }

    /// The program the current command runs in: set by ``CommandLineRunner`` for the duration of a run, so that
    /// the options that load models read with this program's readers.
    @TaskLocal static var current = Program.lean
}
