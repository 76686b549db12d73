#if canImport(SwiftData)
import SwiftData

extension Library {
    @Model final class Book {
        var title: String
        var author: Author?
        #if os(iOS)
        var pages: Int = 0
        #else
        var pages: Int32 = 0
        #endif
        init(title: String) { self.title = title }
    }
}

extension Library {
    @Model final class Author {
        var name: String
        var books: [Book] = []
        init(name: String) { self.name = name }
    }
}

enum Library {}
#endif
