import Foundation

enum FileHandleOutput {
    /// Writes one line to stderr.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
