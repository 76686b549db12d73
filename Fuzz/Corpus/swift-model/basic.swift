import SwiftData
import Foundation

@Model final class Trip {
    @Attribute(.unique) var name: String
    var destination: String?
    var startDate: Date = Date.now
    var budget: Decimal = 0
    var nights = 3
    @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
    @Transient var cachedTitle = ""
    var title: String { name.uppercased() }
    init(name: String) { self.name = name }
}

@Model final class Stop {
    var place: String
    var trip: Trip?
    init(place: String) { self.place = place }
}
