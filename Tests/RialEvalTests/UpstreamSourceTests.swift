import Foundation
import Testing

@testable import RialEval

@Suite struct UpstreamSourceTests {
    @Test func githubSourceGivesRawURL() {
        let source = UpstreamSource(
            parsing:
                "github:DepthAnything/PromptDA@b05523cf9c27e2dbce578b9003a8906bf8ed2eb3:assets/example_images/image.jpg"
        )
        #expect(
            source
                == .github(
                    owner: "DepthAnything", repository: "PromptDA",
                    commit: "b05523cf9c27e2dbce578b9003a8906bf8ed2eb3",
                    path: "assets/example_images/image.jpg"))
        #expect(
            source.downloadURL?.absoluteString
                == "https://raw.githubusercontent.com/DepthAnything/PromptDA/b05523cf9c27e2dbce578b9003a8906bf8ed2eb3/assets/example_images/image.jpg"
        )
        #expect(source.whyNotDownloadable == nil)
    }

    @Test func pathSegmentsArePercentEncoded() {
        let url = UpstreamSource.rawGitHubURL(
            owner: "o", repository: "r.git-x", commit: "abc123",
            path: "jpg/Apple iPhone (4S)#1?.jpg")
        #expect(
            url?.absoluteString
                == "https://raw.githubusercontent.com/o/r.git-x/abc123/jpg/Apple%20iPhone%20(4S)%231%3F.jpg")
    }

    @Test(arguments: [
        ("", "r", "c", "p"), ("o", "r", "c", ""), ("o/x", "r", "c", "p"), ("o", "r", "c", "a//b"),
        ("o", "r", "c", "../etc/passwd"), ("o", "r", "c d", "p"), ("..", "r", "c", "p"),
    ])
    func malformedComponentsGiveNoURL(owner: String, repository: String, commit: String, path: String) {
        #expect(UpstreamSource.rawGitHubURL(owner: owner, repository: repository, commit: commit, path: path) == nil)
    }

    @Test func pypiAndDebianSourcesNeedAMirror() {
        let pypi = UpstreamSource(parsing: "pypi:scikit-image==0.26.0:skimage/data/brick.png")
        #expect(pypi == .pypi(package: "scikit-image", version: "0.26.0", path: "skimage/data/brick.png"))
        #expect(pypi.downloadURL == nil)
        #expect(pypi.whyNotDownloadable?.contains("mirror is needed") == true)

        let debian = UpstreamSource(
            parsing: "debian:opencv-doc=4.6.0+dfsg-12:/usr/share/doc/opencv-doc/examples/data/aloeL.jpg")
        #expect(
            debian
                == .debian(
                    package: "opencv-doc", version: "4.6.0+dfsg-12",
                    path: "/usr/share/doc/opencv-doc/examples/data/aloeL.jpg"))
        #expect(debian.downloadURL == nil)
        #expect(debian.whyNotDownloadable?.contains("Debian package opencv-doc=4.6.0+dfsg-12") == true)
    }

    @Test(arguments: [
        "github:DepthAnything/PromptDA@b05523c:assets/image.jpg",
        "pypi:scikit-image==0.26.0:skimage/data/brick.png",
        "debian:opencv-doc=1:4.6.0+dfsg-12:/usr/share/x.jpg",
        "https://example.com/x.jpg",
        "github:no-commit:path",
    ])
    func descriptionRoundTrips(text: String) {
        #expect(UpstreamSource(parsing: text).description == text)
    }

    @Test func fileReferenceURLRules() {
        var file = FileReference(
            role: .image, path: "files/a.jpg", jsonPath: "image",
            source: "github:o/r@c0ffee:dir/a.jpg")
        #expect(file.downloadURL?.absoluteString == "https://raw.githubusercontent.com/o/r/c0ffee/dir/a.jpg")
        file.url = "https://example.org/a.jpg"
        #expect(file.downloadURL?.absoluteString == "https://example.org/a.jpg")
        file.url = nil
        file.note = "upstream name differs"
        #expect(file.downloadURL == nil)
        #expect(file.whyNotDownloadable == "upstream name differs; a mirror is needed")
    }
}
