/// `@Model` sources of the shape a real SwiftData store showed (coredata-format.md §1.5 and §1.8): enums with
/// `String` and `Int` raw values, a `Codable` struct holding arrays, `#Index` with three key-path lists and
/// `@Attribute(.unique)`. The layout tests and the CLI's value tests read the same sources.
public enum SwiftDataRecipeSource {
    public static let text = """
        import SwiftData

        enum Level: String, Codable { case small = "Small", large = "Large" }
        enum Tier: Int, Codable { case one = 1, two = 2 }
        enum Shape: String, Codable { case round, square }
        struct Garnish: Codable { var name: String; var grams: Double }
        struct Profile: Codable {
            var botanicals: [String]
            var garnishes: [Garnish]
            var strength: Double
        }

        @Model final class Recipe {
            #Index<Recipe>([\\.title], [\\.bookName], [\\.title, \\.bookName])
            @Attribute(.unique) var title: String
            var bookName: String
            var level: Level?
            var tier: Tier?
            var shape: Shape
            var profile: Profile?
            init(title: String, bookName: String, shape: Shape) {
                self.title = title
                self.bookName = bookName
                self.shape = shape
            }
        }
        """
}
