/// An error from loading a model, with the file and the place in it.
///
/// `description` is one line saying what went wrong and where, e.g.
/// `Model.xcdatamodel/contents:12:5: entity 'Person': unknown attribute type 'Text'`.
package struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    package enum Code: String, Sendable {
        /// No file or folder at the path.
        case fileNotFound
        /// The path is not a model cdstore can read.
        case unsupportedFormat
        /// A pre-Xcode-4 model (a binary `elements` file instead of `contents`).
        case legacyBinaryModel
        /// The XML is not well formed or not a Core Data model.
        case malformedXML
        /// The JSON model is not well formed or not in cdstore's format.
        case malformedJSON
        /// `--model-version` names no version of the bundle, or the current version is missing.
        case unknownVersion
        /// A value in the model cannot be understood (an unknown attribute type, a bad number).
        case invalidValue
        /// A compiled model's or model cache's archive cannot be walked: an object contains itself (a predicate
        /// among its own subpredicates, an entity its own superentity) or objects nest deeper than
        /// ``ObjectPath/defaultDepthLimit``. momc never writes either; the file is damaged or hostile.
        case damagedArchive
        /// A Swift source file of a SwiftData model does not parse.
        case malformedSwift
        /// A `@Model` property has a type SwiftData cannot store, or the sources name a type they do not declare.
        case unsupportedSwiftType
        /// The path is SwiftData sources and no Swift source reader is installed (``SwiftSources``): the program
        /// does not link the parser. Thrown before anything is read or written.
        case swiftSourcesNeedReader
    }

    /// What kind of failure this is.
    package var code: Code
    /// What went wrong, in a sentence without the location.
    package var message: String
    /// The file that was being read.
    package var file: String?
    /// The 1-based line in `file`, when known.
    package var line: Int?
    /// The 1-based column in `file`, when known.
    package var column: Int?
    /// The entity concerned, when known.
    package var entity: String?
    /// The property concerned, when known.
    package var property: String?
    /// Whether ``property`` is a relationship (messages then say so rather than "attribute").
    package var isRelationship = false
    /// Which input of the call caused the error, when one did (``ErrorInput/modelVersion`` for a version the
    /// bundle does not have or cannot pick).
    package var input: ErrorInput?

    /// Creates an error.
    package init(_ code: Code, _ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil,
                entity: String? = nil, property: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.entity = entity
        self.property = property
    }

    package var description: String { describing(inputAs: input?.label) }

    /// The description with `name` for the input (see ``ErrorInput/label``) between the place and the message.
    package func describing(inputAs name: String?) -> String {
        var text = ErrorDescription(message)
        text.file = file
        text.line = line
        text.column = column
        text.entity = entity
        text.property = property
        text.propertyKind = isRelationship ? "relationship" : "property"
        text.inputName = name
        return text.text
    }
}
