import Testing
@testable import Gym

@Suite struct RenderTests {
    @Test func pongFrameShowsPaddlesAndBall() {
        var game = PongGame(config: PongConfig(), seed: 1)
        game.state.ballX = 100; game.state.ballY = 300
        var frame = game.makeFrame(scale: 0.5)
        #expect(frame.width == 160 && frame.height == 240)
        game.render(into: &frame)
        // Ball centre (100, 300) → pixel (50, (480 - 300) / 2 = 90).
        #expect(frame[50, 90] == 255)
        // Bottom paddle centre (160, 24) → pixel (80, 228); top (160, 456) → (80, 12).
        #expect(frame[80, 228] == 255 && frame[80, 12] == 255)
        #expect(frame[5, 5] == 0)
        #expect(frame.pixels.filter { $0 == 255 }.count < frame.pixels.count / 10)
    }

    @Test func gifDecodesBackToTheFrames() throws {
        var frames: [GrayFrame] = []
        var game = PongGame(config: PongConfig(), seed: 4)
        var play = RandomPlay(seed: 4, actions: 3)
        for _ in 0 ..< 5 {
            var f = game.makeFrame(scale: 0.25)
            game.render(into: &f)
            frames.append(f)
            for _ in 0 ..< 30 { let a = play.next(); _ = game.step(top: a.top, bottom: a.bottom) }
        }
        // A noisy frame exercises code-size growth and table resets.
        var noise = GrayFrame(width: 97, height: 61)
        var rng = Xoshiro256(seed: 1)
        for i in noise.pixels.indices { noise.pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
        for set in [frames, [noise]] {
            var gif = GIFEncoder(width: set[0].width, height: set[0].height)
            for f in set { gif.add(f) }
            let decoded = try GIFTestDecoder.frames(gif.data)
            #expect(decoded.count == set.count)
            for (a, b) in zip(decoded, set) { #expect(a == b.pixels) }
        }
    }
}

/// A minimal GIF reader for the encoder's output (global palette, full
/// frames): enough to prove the LZW stream decodes to the pixels.
enum GIFTestDecoder {
    struct Failure: Error {}

    static func frames(_ d: [UInt8]) throws -> [[UInt8]] {
        guard d.count > 13, Array(d[0 ..< 6]) == Array("GIF89a".utf8) else { throw Failure() }
        let width = Int(d[6]) | Int(d[7]) << 8, height = Int(d[8]) | Int(d[9]) << 8
        var i = 13 + 3 * 256
        var out: [[UInt8]] = []
        while i < d.count {
            switch d[i] {
            case 0x21:  // extension: skip its sub-blocks
                i += 2
                while d[i] != 0 { i += Int(d[i]) + 1 }
                i += 1
            case 0x2C:
                i += 10
                let minCode = Int(d[i]); i += 1
                var data: [UInt8] = []
                while d[i] != 0 { data += d[i + 1 ... i + Int(d[i])]; i += Int(d[i]) + 1 }
                i += 1
                let pixels = try lzwDecode(data, minCode: minCode)
                guard pixels.count == width * height else { throw Failure() }
                out.append(pixels)
            case 0x3B: return out
            default: throw Failure()
            }
        }
        throw Failure()
    }

    static func lzwDecode(_ data: [UInt8], minCode: Int) throws -> [UInt8] {
        let clear = 1 << minCode, end = clear + 1
        var dict: [[UInt8]] = []
        func reset() { dict = (0 ..< clear).map { [UInt8($0)] } + [[], []] }
        reset()
        var size = minCode + 1, bitPos = 0, prev: [UInt8]? = nil
        var out: [UInt8] = []
        while bitPos + size <= data.count * 8 {
            var code = 0
            for k in 0 ..< size where data[(bitPos + k) / 8] >> ((bitPos + k) % 8) & 1 == 1 { code |= 1 << k }
            bitPos += size
            if code == clear { reset(); size = minCode + 1; prev = nil; continue }
            if code == end { return out }
            var entry: [UInt8]
            if code < dict.count { entry = dict[code] } else if let p = prev, code == dict.count { entry = p + [p[0]] } else { throw Failure() }
            out += entry
            if let p = prev, dict.count < 4096 { dict.append(p + [entry[0]]) }
            if dict.count == 1 << size, size < 12 { size += 1 }
            prev = entry
        }
        throw Failure()
    }
}
