import CDStoreIO
import CDStoreModel
import CDStoreEngine
import Foundation

extension ScannedStore {
    /// Writes the store's objects and its model into `directory` (created when missing) and returns the number
    /// of objects written per entity.
    ///
    /// ```swift
    /// for await found in StoreScanner(roots: [evidence]) where found.kind != nil {
    ///     let written = try found.export(to: "out/\(found.app ?? "unknown")")
    /// }
    /// ```
    ///
    /// - `ENTITY.ndjson` for each concrete entity: one object of exactly that entity per line, as `cdstore export
    ///   --format ndjson` writes it: `_id`, `_entity`, the attributes (dates in ISO 8601, Binary values base64,
    ///   archived values decoded), the relationships as object IDs.
    /// - `model.json`: the model the store was read with, as cdstore's JSON model (`cdstore model compile`
    ///   without an output name writes the same).
    ///
    /// The store is read as ``StoreScanner`` reads it, changing nothing; objects are streamed, so memory stays
    /// flat whatever their number. Files already in `directory` with those names are replaced.
    @discardableResult
    public func export(to directory: String) throws -> [String: Int] {
        try CDStoreError.wrapping {
            guard case .store(let store) = try StoreProbe.probe(path, wal: walPath) else {
                throw StoreError(.cannotOpen, "\(path) is not a Core Data store")
            }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try JSONModelCodec.encode(store.model).write(to: URL(fileURLWithPath: directory).appendingPathComponent("model.json"))
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.cannotOpen, "cannot write into \(directory) (\(StoreWalk.reason(error)))")
            }
            var written: [String: Int] = [:]
            let style = RecordStyle(syntax: .json, nameEntity: true, terminator: "\n")
            for entity in store.model.entities where !entity.isAbstract {
                let file = (directory as NSString).appendingPathComponent(entity.name + ".ndjson")
                let sink: FileSink
                do {
                    sink = try FileSink(path: file)
                } catch {
                    throw StoreError(.cannotOpen, "cannot write \(file)")
                }
                let request = ObjectFetchRequest(entity: entity.name, includesSubentities: false)
                written[entity.name] = try store.writeRecords(request, style: style, to: sink)
                try sink.close()
            }
            return written
        }
    }
}
