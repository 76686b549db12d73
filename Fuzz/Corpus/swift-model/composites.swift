import SwiftData

struct Address: Codable, Hashable {
    var street: String
    var city: String?
    var id: Int
}

enum Status: String, Codable { case active, archived }
enum Folder: Codable { case inbox, systemAll, user }

@Model class Person {
    var id: Int
    var home: Address?
    var work: Address
    var status: Status = .active
    var folder: Folder?
    var tags: [String] = []
    var scores: [String: Double] = [:]
    init(id: Int, work: Address) { self.id = id; self.work = work }
}
