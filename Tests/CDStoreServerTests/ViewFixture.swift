import CDStore
@testable import CDStoreServer
import CDStoreTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A Company store for the views of an entity page: 30 employees in two departments, hired over 2020–2023
/// with salaries from 40,000 to 98,000 and every third one inactive, and one Manager (a sub-entity of Employee).
struct ViewFixture {
    static let model = Corpus.schemas.appendingPathComponent("Company.json").path

    let path: String
    let store: CDStore
    let settings: BrowseSettings

    /// Seconds since 2001 of 1 January of `year`, plus `days`, UTC.
    static func date(_ year: Int, days: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: 1, day: 1))!.addingTimeInterval(Double(days) * 86_400)
    }

    init(settings: BrowseSettings = .init(), extraCompanies: Int = 0) throws {
        let folder = try temporaryDirectory()
        path = folder.appendingPathComponent("Company.sqlite").path
        let writer = try CDStore(path: path, model: .path(Self.model), options: [.create])
        try writer.write { ctx in
            let acme = try ctx.insert("Company", ["id": UUID(), "name": "Acme"])
            let research = try ctx.insert("Department", ["name": "R&D", "company": acme])
            let sales = try ctx.insert("Department", ["name": "Sales \"East\"", "company": acme])
            for i in 1...30 {
                try ctx.insert("Employee", ["employeeNumber": i, "firstName": "First\(i)", "lastName": "Last\(i)",
                                            "age": 20 + i, "salary": 40_000 + (i - 1) * 2_000, "isActive": i % 3 != 0,
                                            "hiredAt": Self.date(2020 + (i - 1) / 10 + ((i - 1) % 10 == 9 ? 1 : 0), days: i * 7),
                                            "department": i <= 20 ? research : sales])
            }
            try ctx.insert("Manager", ["employeeNumber": 99, "firstName": "Max", "lastName": "Boss", "level": 2,
                                       "salary": 150_000, "isActive": true, "hiredAt": Self.date(2019), "department": research])
            for i in 0..<extraCompanies {
                try ctx.insert("Company", ["id": UUID(), "name": "Firm \(i)", "revenue": Double(i), "founded": Self.date(2000, days: i)])
            }
        }
        store = try CDStore(path: path, options: [.readOnly])
        self.settings = settings
    }

    var server: BrowseServer { BrowseServer(store: store, host: "127.0.0.1", port: 0, settings: settings) }

    func get(_ uri: String) async throws -> ServerFixture.Reply {
        let app = Application(responder: server.responder())
        return try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                ServerFixture.Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
            }
        }
    }

    /// The `href`s in `html` whose text is `text`.
    static func links(_ html: String, text: String) -> [String] {
        let escaped = HTML.escape(text)
        var found: [String] = []
        var rest = Substring(html)
        while let end = rest.range(of: ">" + escaped + "</a>") {
            let before = rest[..<end.lowerBound]
            if let start = before.range(of: "<a href=\"", options: .backwards) {
                let href = before[start.upperBound...].prefix { $0 != "\"" }
                found.append(String(href).replacingOccurrences(of: "&amp;", with: "&"))
            }
            rest = rest[end.upperBound...]
        }
        return found
    }
}
