import Foundation
import PackagePlugin

/// Writes the commit the tree is built from into the target as `buildCommit`, before every build: `git describe` of the
/// package's checkout, `-dirty` when it has changes, `unknown` outside a git checkout. The file is rewritten only when
/// the commit changed, so a build on the same commit compiles nothing again.
@main struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = """
            commit=$(git -C "$1" describe --always --dirty --abbrev=12 --exclude '*' 2>/dev/null || echo unknown)
            line="let buildCommit = \\"$commit\\""
            mkdir -p "$2"
            [ "$(cat "$2/BuildCommit.swift" 2>/dev/null)" = "$line" ] || printf '%s\\n' "$line" > "$2/BuildCommit.swift"
            """
        return [
            .prebuildCommand(
                displayName: "Reading the commit Kiln is built from", executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path], outputFilesDirectory: output)
        ]
    }
}
