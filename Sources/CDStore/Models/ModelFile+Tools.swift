import CDStoreModel
import Foundation

/// A problem in a model, with its file, line, column, entity and property: what `cdstore model validate` prints.
public typealias ModelProblem = CDStoreModel.ModelIssue

extension ModelFile {
    /// Every problem Xcode would report for this model, and those Core Data would meet at run time: names,
    /// inheritance, defaults and limits of each attribute's type, inverses, uniqueness constraints and fetch
    /// indexes naming properties the entity lacks. Empty when there is none.
    ///
    /// ```swift
    /// for problem in try ModelFile(contentsOf: "App.xcdatamodeld").problems() { print(problem) }
    /// ```
    public func problems() -> [ModelProblem] {
        ModelValidator.validate(loaded)
    }

    /// Writes `versions` to `path` in the form the path names, and returns what that form cannot hold, one sentence
    /// each (what `cdstore model compile -o PATH` prints as warnings):
    ///
    /// | path | written |
    /// |---|---|
    /// | `X.xcdatamodeld` | a bundle with every version and `.xccurrentversion` naming the current one |
    /// | `X.xcdatamodel` | the current version's folder with its `contents` |
    /// | anything else | cdstore's JSON model of the current version |
    ///
    /// Xcode 15 and later open the Xcode forms, and reading any output back gives the same entity version hashes
    /// and store layout. An existing output is replaced as a whole. Compiled models (`.mom`, `.momd`) are refused.
    @discardableResult
    public static func write(_ versions: [ModelFile], to path: String) throws -> [String] {
        guard let current = versions.firstIndex(where: \.isCurrentVersion) ?? versions.indices.first else {
            throw CDStoreError(.invalidModel, "no model version to write", file: path)
        }
        return try CDStoreError.wrapping {
            try ModelFileWriter.write(ModelVersions(versions: versions.map(\.loaded), currentIndex: current), to: path)
        }
    }
}

extension ManagedObjectModel {
    /// The model as cdstore's JSON model (`Schemas/README.md`): what `cdstore model compile` prints, and what
    /// ``ModelFile/init(contentsOf:version:schema:readers:)`` reads back with the same version hashes.
    public func jsonModel() throws -> Data {
        try CDStoreError.wrapping { try JSONModelCodec.encode(self) }
    }
}
