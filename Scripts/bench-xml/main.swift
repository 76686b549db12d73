import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

// XML parsers on one file: cdstore's XMLReader (events, every attribute value made a String) and XMLTreeElement,
// against Foundation's XMLParser with a delegate that only receives the callbacks. Thread CPU time per read of
// the whole file (the machine is shared, so wall-clock time mostly measures the other processes).
func cpuMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
}

func measure(_ name: String, runs: Int, _ body: () throws -> Int) rethrows {
    var times: [Double] = []
    var count = 0
    for _ in 0..<runs {
        let start = cpuMilliseconds()
        count = try body()
        times.append(cpuMilliseconds() - start)
    }
    times.sort()
    print(String(format: "%-34@ %5d elements  CPU median %.3f ms, min %.3f ms (%d runs)",
                 name, count, times[runs / 2], times[0], runs))
}

final class Counter: NSObject, XMLParserDelegate {
    var elements = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements += 1
    }
}

let runs = Int(CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "") ?? 100
let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let bytes = [UInt8](data)
try measure("cdstore XMLReader (events)", runs: runs) {
    var reader = try XMLReader(bytes)
    var elements = 0
    while let event = try reader.next() {
        if case .start = event { elements += 1 }
    }
    return elements
}
try measure("cdstore XMLTreeElement.parse", runs: runs) {
    var elements = 0
    var stack = [try XMLTreeElement.parse(bytes)]
    while let element = stack.popLast() {
        elements += 1
        stack += element.children
    }
    return elements
}
measure("Foundation XMLParser (no-op)", runs: runs) {
    let parser = XMLParser(data: data)
    let counter = Counter()
    parser.delegate = counter
    _ = parser.parse()
    return counter.elements
}
