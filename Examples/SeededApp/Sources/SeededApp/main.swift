import CDStore
import Foundation

// The seed store CDStoreSeedPlugin built from Library.seed/ at build time, as the app finds it in its bundle.
guard let bundled = Bundle.module.url(forResource: "Library", withExtension: "sqlite") else {
    FileHandle.standardError.write(Data("seeded-app: Library.sqlite is not in the bundle\n".utf8))
    exit(1)
}
if CommandLine.arguments.dropFirst().first == "--print-path" {
    print(bundled.path)
    exit(0)
}

// A bundle is read-only: an app copies its seed out before opening it for writing. Here it is only read.
let store = try CDStore(path: bundled.path, options: [.readOnly])
try store.read { ctx in
    // Records are the structs `swift package cdstore-generate --language codable` wrote into Records/.
    for author in try ctx.fetch(Author.self, matching: Criteria.all.sorted(by: ["name"])) {
        let books = try ctx.fetch(Book.self, matching: Criteria.equal("author.name", author.name).sorted(by: ["year"]))
        print("\(author.name) (\(author.born.map(String.init) ?? "?")): "
              + books.map { "\($0.title) (\($0.year.map(String.init) ?? "?"))" }.joined(separator: ", "))
    }
    print("\(try ctx.count("Book", matching: .all)) books, \(try ctx.count("Author", matching: .all)) authors")
}
