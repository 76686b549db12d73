import ArgumentParser

/// A command that opens a store with ``StoreOptions``: in the REPL, ``CommandLineRunner/run(_:session:)`` gives
/// its options the session, so it shares the session's open store instead of opening its own.
protocol StoreCommand: ParsableCommand {
    /// The command's `--store`, `--model` and related options.
    var storeOptions: StoreOptions { get set }
}

extension CountCommand: StoreCommand {}
extension DeleteCommand: StoreCommand {}
extension DiffCommand: StoreCommand {}
extension ExportCommand: StoreCommand {}
extension FetchCommand: StoreCommand {}
extension HistoryCommand: StoreCommand {}
extension ImportCommand: StoreCommand {}
extension InfoCommand: StoreCommand {}
extension InsertCommand: StoreCommand {}
extension MigrateCommand: StoreCommand {}
extension ProjectCommand: StoreCommand {}
extension SeedCommand: StoreCommand {}
extension UpdateCommand: StoreCommand {}
extension VerifyCommand: StoreCommand {}
