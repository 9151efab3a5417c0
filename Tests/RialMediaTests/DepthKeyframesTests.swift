import Testing

@testable import RialMedia

@Suite("Depth keyframes")
struct DepthKeyframesTests {
    private func frame(_ t: Double, width: Int = 2, height: Int = 2) -> DepthKeyframe {
        DepthKeyframe(
            timestamp: t,
            depth: DepthMap(width: width, height: height, metres: .init(repeating: 1, count: width * height))!)
    }

    @Test("Keyframes of one size with non-decreasing timestamps form a sequence")
    func valid() throws {
        // 10 fps keyframes (methods.md section 6): 0, 0.1, 0.2 s; an equal timestamp is allowed.
        let sequence = try DepthKeyframes([frame(0), frame(0.1), frame(0.1), frame(0.2)])
        #expect(sequence.count == 4)
        #expect(sequence.width == 2 && sequence.height == 2)
    }

    @Test("A keyframe of another size is named by its index")
    func sizeMismatch() {
        #expect(
            throws: DepthKeyframes.Problem.sizeMismatch(
                index: 1, width: 3, height: 2, expectedWidth: 2, expectedHeight: 2)
        ) {
            try DepthKeyframes([frame(0), frame(0.1, width: 3)])
        }
    }

    @Test("A timestamp that goes back in time or is not finite is refused")
    func timestamps() {
        #expect(throws: DepthKeyframes.Problem.timestamp(index: 2, value: 0.05)) {
            try DepthKeyframes([frame(0), frame(0.1), frame(0.05)])
        }
        #expect(throws: DepthKeyframes.Problem.timestamp(index: 0, value: .infinity)) {
            try DepthKeyframes([frame(.infinity)])
        }
        #expect(
            DepthKeyframes.Problem.timestamp(index: 2, value: 0.05).description
                == "depth keyframe 2 has timestamp 0.05, which is not finite or goes back in time")
    }
}
