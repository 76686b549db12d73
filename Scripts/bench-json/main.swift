// Compares JSON parsers on the NDJSON benchmark records (see docs/decisions/0005-json-reader.md).
// Built by Scripts/bench-json.sh together with Sources/CDStoreJSON, as one optimized module.
import Foundation

struct Person: Decodable {
    var id: Int64
    var name: String
    var age: Int
    var salary: Double
    var active: Bool
    var joined: String
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: bench-json people.ndjson [records] [rounds] [cases: a substring of the case names]")
    exit(2)
}
let path = arguments[1]
let limit = arguments.count > 2 ? Int(arguments[2])! : Int.max
let rounds = arguments.count > 3 ? Int(arguments[3])! : 3
let only = arguments.count > 4 ? arguments[4] : ""
let whole = FileManager.default.contents(atPath: path)!
// The line ranges are found once, outside the timings: every parser gets the same lines.
var ranges: [Range<Int>] = []
whole.withUnsafeBytes { raw in
    var start = 0
    for index in 0..<raw.count where raw[index] == 10 {
        if ranges.count == limit { break }
        ranges.append(start..<index)
        start = index + 1
    }
}
let count = ranges.count
let lines = ranges.map { whole.subdata(in: $0) }
print("\(count) records from \(path), best of \(rounds) rounds, thread CPU time")

/// CPU time of this thread: the machine is shared, and wall-clock time would count other people's builds.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func measure(_ name: String, _ body: () throws -> Int) rethrows {
    guard only.isEmpty || name.contains(only) else { return }
    var seconds = Double.infinity
    var checksum = 0
    for _ in 0..<rounds {
        let start = cpuSeconds()
        checksum = try body()
        seconds = min(seconds, cpuSeconds() - start)
    }
    let perRecord = seconds * 1e9 / Double(count)
    let label = name.padding(toLength: 48, withPad: " ", startingAt: 0)
    print(label + String(format: "%6.0f ns/record %7.3f s  (check %d)", perRecord, seconds, checksum))
}

try measure("CDStoreJSON, streaming the file (64 KiB chunks)") {
    var reader = JSONReader(try ByteStream(path: path))
    var n = 0
    while n < count * 6, case let (value, _)? = try reader.readLineValue() {
        if case .object(let fields) = value { n += fields.count }
    }
    return n
}
try measure("CDStoreJSON, one line at a time") {
    var n = 0
    for line in lines {
        var reader = JSONReader(ByteStream(bytes: [UInt8](line)))
        if case .object(let fields) = try reader.readValue() { n += fields.count }
    }
    return n
}
try measure("JSONSerialization, one line at a time") {
    var n = 0
    for line in lines {
        if let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] { n += object.count }
    }
    return n
}
let decoder = JSONDecoder()
try measure("JSONDecoder into a struct, one line at a time") {
    var n = 0
    for line in lines { n += Int(try decoder.decode(Person.self, from: line).age) > 0 ? 6 : 0 }
    return n
}
