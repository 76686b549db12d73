import Foundation

/// The app a file belongs to, as the folder layouts of Apple's platforms say it.
///
/// - iOS devices and simulators keep each app's data in `Containers/Data/Application/<UUID>/`, its app groups in
///   `Containers/Shared/AppGroup/<UUID>/` and its extensions in `Containers/Data/PluginKitPlugin/<UUID>/`, under a
///   new UUID at every install; only the container's `.com.apple.mobile_container_manager.metadata.plist` names
///   the app (its `MCMMetadataIdentifier`, an app group's `group.…` identifier).
/// - macOS keeps a sandboxed app's data in `~/Library/Containers/<bundle id>/Data/` and app groups in
///   `~/Library/Group Containers/<group id>/`: the folder is named by the identifier.
///
/// Each container's metadata is read once per scan.
final class ContainerIdentity {
    /// The metadata file of an iOS container.
    static let metadataFile = ".com.apple.mobile_container_manager.metadata.plist"
    /// The identifier in it.
    static let identifierKey = "MCMMetadataIdentifier"
    /// The container kinds of iOS under `Containers/`.
    private static let iOSKinds: Set<[String]> = [["Data", "Application"], ["Shared", "AppGroup"], ["Data", "PluginKitPlugin"],
                                                  ["Bundle", "Application"]]

    private var identifiers: [String: String?] = [:]

    /// The app or group identifier of the container holding `path`, or nil when the layout names none.
    func app(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // The innermost container wins: a backup of a container inside a container is rare, but a store is in one.
        for index in parts.indices.reversed() {
            switch parts[index] {
            case "Containers":
                if index + 3 < parts.count, Self.iOSKinds.contains([parts[index + 1], parts[index + 2]]) {
                    return identifier(ofContainer: parts[0...(index + 3)].joined(separator: "/"))
                }
                // macOS: Containers/<bundle id>/… (a metadata plist, when there is one, has the last word).
                if index + 2 < parts.count, !["Data", "Shared", "Bundle"].contains(parts[index + 1]) {
                    let folder = parts[0...(index + 1)].joined(separator: "/")
                    return identifier(ofContainer: folder) ?? parts[index + 1]
                }
            case "Group Containers":
                if index + 2 < parts.count { return parts[index + 1] }
            default:
                continue
            }
        }
        return nil
    }

    /// `MCMMetadataIdentifier` of the container at `folder`, read once.
    private func identifier(ofContainer folder: String) -> String? {
        if let known = identifiers[folder] { return known }
        let file = (folder as NSString).appendingPathComponent(Self.metadataFile)
        var identifier: String?
        if let data = FileManager.default.contents(atPath: file),
           let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] {
            identifier = plist[Self.identifierKey] as? String
        }
        identifiers[folder] = .some(identifier)
        return identifier
    }
}
