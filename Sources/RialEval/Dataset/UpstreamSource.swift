import Foundation

/// Where a dataset file comes from, parsed from a manifest's `source` string.
///
/// Forms (as in `SOURCES.csv` of the real public data):
/// - `github:OWNER/REPO@COMMIT:PATH` — a file in a repository at a commit; downloadable
///   from `https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH`.
/// - `pypi:PACKAGE==VERSION:PATH` — a file inside a PyPI distribution (no direct URL).
/// - `debian:PACKAGE=VERSION:/PATH` — a file installed by a Debian package (no direct URL).
/// Anything else is `.other` and never downloaded.
public enum UpstreamSource: Sendable, Hashable, CustomStringConvertible {
    case github(owner: String, repository: String, commit: String, path: String)
    case pypi(package: String, version: String, path: String)
    case debian(package: String, version: String, path: String)
    case other(String)

    /// Parses a `source` string; malformed forms of the known prefixes become `.other`.
    public init(parsing text: String) {
        if let rest = text.dropPrefix("github:"),
            let at = rest.firstIndex(of: "@"),
            let colon = rest[at...].firstIndex(of: ":")
        {
            let ownerRepo = rest[..<at].split(separator: "/", omittingEmptySubsequences: false)
            let commit = String(rest[rest.index(after: at)..<colon])
            let path = String(rest[rest.index(after: colon)...])
            if ownerRepo.count == 2, Self.isName(ownerRepo[0]), Self.isName(ownerRepo[1]),
                Self.isName(commit), !path.isEmpty
            {
                self = .github(
                    owner: String(ownerRepo[0]), repository: String(ownerRepo[1]),
                    commit: commit, path: path)
                return
            }
        }
        if let rest = text.dropPrefix("pypi:"),
            let colon = rest.firstIndex(of: ":"),
            let equals = rest[..<colon].range(of: "==")
        {
            let package = String(rest[..<equals.lowerBound])
            let version = String(rest[equals.upperBound..<colon])
            let path = String(rest[rest.index(after: colon)...])
            if !package.isEmpty, !version.isEmpty, !path.isEmpty {
                self = .pypi(package: package, version: version, path: path)
                return
            }
        }
        if let rest = text.dropPrefix("debian:"),
            let separator = rest.range(of: ":/"),
            let equals = rest[..<separator.lowerBound].firstIndex(of: "=")
        {
            let package = String(rest[..<equals])
            let version = String(rest[rest.index(after: equals)..<separator.lowerBound])
            let path = String(rest[rest.index(after: separator.lowerBound)...])
            if !package.isEmpty, !version.isEmpty {
                self = .debian(package: package, version: version, path: path)
                return
            }
        }
        self = .other(text)
    }

    /// The source string in manifest form (inverse of `init(parsing:)`).
    public var description: String {
        switch self {
        case .github(let owner, let repository, let commit, let path): "github:\(owner)/\(repository)@\(commit):\(path)"
        case .pypi(let package, let version, let path): "pypi:\(package)==\(version):\(path)"
        case .debian(let package, let version, let path): "debian:\(package)=\(version):\(path)"
        case .other(let text): text
        }
    }

    /// The direct download URL: GitHub sources only, `nil` for the others.
    public var downloadURL: URL? {
        guard case .github(let owner, let repository, let commit, let path) = self else { return nil }
        return Self.rawGitHubURL(owner: owner, repository: repository, commit: commit, path: path)
    }

    /// `https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH`, each path segment
    /// percent-encoded (spaces, `#`, `?` and non-ASCII are escaped; `/` separates).
    ///
    /// Returns `nil` when a component is empty, when owner, repository or commit contain
    /// anything but letters, digits, `.`, `_` and `-`, or when the path has an empty,
    /// `.` or `..` segment.
    public static func rawGitHubURL(owner: String, repository: String, commit: String, path: String) -> URL? {
        guard isName(owner), isName(repository), isName(commit) else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty,
            segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { return nil }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        var encoded: [String] = []
        for segment in segments {
            guard let e = String(segment).addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
            encoded.append(e)
        }
        return URL(
            string: "https://raw.githubusercontent.com/\(owner)/\(repository)/\(commit)/"
                + encoded.joined(separator: "/"))
    }

    /// Why a source cannot be downloaded directly, for fetch reports; `nil` for GitHub.
    public var whyNotDownloadable: String? {
        switch self {
        case .github: nil
        case .pypi(let package, let version, _):
            "comes from the PyPI package \(package)==\(version), which fetch does not unpack; a mirror is needed"
        case .debian(let package, let version, _):
            "comes from the Debian package \(package)=\(version), which fetch does not unpack; a mirror is needed"
        case .other(let text):
            "source '\(text)' is not of the form github:OWNER/REPO@COMMIT:PATH; a mirror is needed"
        }
    }

    private static func isName<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text != "." && text != ".."
            && text.unicodeScalars.allSatisfy { c in
                ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
                    || c == "." || c == "_" || c == "-"
            }
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}
