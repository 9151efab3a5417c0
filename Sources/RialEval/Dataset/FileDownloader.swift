import Foundation
import RialMedia

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads one URL to a file. `DatasetFetcher` uses it for upstream files;
/// tests substitute a fake.
public protocol FileDownloading: Sendable {
    /// Downloads `url` and writes the body to `destination`, replacing it.
    ///
    /// - Throws: an error whose description says what failed (network, HTTP status,
    ///   writing), for the fetch report.
    func download(_ url: URL, to destination: String) throws
}

/// A download failure, described for a fetch report.
public struct DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var url: URL
    public var reason: String
    public var description: String { "download of \(url.absoluteString) failed: \(reason)" }
}

/// `FileDownloading` through `URLSession` (FoundationNetworking on Linux).
///
/// One request at a time, synchronously; the whole body is held in memory (dataset files
/// are a few MB). Only HTTP 200 counts as success.
public struct URLSessionDownloader: FileDownloading {
    /// Seconds without data before a request fails.
    public var requestTimeout: TimeInterval
    /// Seconds for a whole download before it fails.
    public var resourceTimeout: TimeInterval

    public init(requestTimeout: TimeInterval = 30, resourceTimeout: TimeInterval = 300) {
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
    }

    public func download(_ url: URL, to destination: String) throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let box = Locked<Result<Data, DownloadError>>(
            .failure(DownloadError(url: url, reason: "no response")))
        let semaphore = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: url) { data, response, error in
            if let error {
                box.withLock { $0 = .failure(DownloadError(url: url, reason: error.localizedDescription)) }
            } else if let http = response as? HTTPURLResponse, http.statusCode != 200 {
                box.withLock { $0 = .failure(DownloadError(url: url, reason: "HTTP status \(http.statusCode)")) }
            } else {
                box.withLock { $0 = .success(data ?? Data()) }
            }
            semaphore.signal()
        }
        task.resume()
        semaphore.wait()
        let data = try box.withLock { $0 }.get()
        do {
            try data.write(to: URL(fileURLWithPath: destination), options: .atomic)
        } catch {
            throw DownloadError(url: url, reason: "cannot write \(destination): \(error.localizedDescription)")
        }
    }
}
