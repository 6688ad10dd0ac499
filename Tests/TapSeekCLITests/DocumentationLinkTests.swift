import Foundation
import Testing

/// README.md and the guides under docs/ hold together, checked against the files themselves and
/// the built `tapseek`.
///
/// - **Links.** Every inline link and image, `[text](target)` or `![alt](target)`, outside fenced
///   code, whose target has no scheme (`https:`, `mailto:`) must name a file or folder that
///   exists, relative to the Markdown file. A `#anchor` on a Markdown target (or alone, for the
///   same file) must be the GitHub slug of one of that file's headings: lower case, letters,
///   digits, `-` and `_` kept, spaces turned into `-`, everything else dropped, `-1`, `-2` added
///   to repeated headings.
/// - **Command lines.** A line of a fenced code block that starts with `tapseek ` (after an
///   optional `$ `; a trailing `\` joins the next line) is a command line. Each must name a
///   command that `tapseek help` lists (and a subcommand of one that has them, `dem fetch`), and
///   `tapseek help COMMAND` must succeed (it prints the root help, exit 0, for an unknown name,
///   hence the first check). A command line is also **run** — from the package root, on the data
///   `scripts/setup.sh` installs (the default DEM, the geoid, the indices) — when all of these
///   hold: it names a file under `examples/` that exists; every other argument that looks like
///   a path (holds a `/`) exists too, except the value of an option that writes a file (`-o`,
///   `--svg`, `--plot`, `--annotate`), which is redirected into a fresh temporary folder; and
///   it needs no shell (no pipe, redirection, substitution, `;` or `&` outside quotes; a ` #`
///   comment is dropped). It must exit 0 and write every file it was asked to. Why this rule:
///   such a line depends only on the repository and on what set-up installs, never on the
///   network, the clock or a file of the reader's own, so it cannot flake; a line that
///   downloads (`dem fetch`) or names the reader's own files is checked for its command only.
/// - **The tour.** Every command `tapseek help` lists appears in README.md as `` `tapseek NAME``.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DocumentationLinkTests {
    static let root = CLIRunner.packageRoot

    /// README.md and every Markdown file under docs/, as paths relative to the package root.
    static func markdownFiles() throws -> [String] {
        var files = ["README.md"]
        let docs = Self.root.appendingPathComponent("docs")
        let walker = try #require(FileManager.default.enumerator(atPath: docs.path))
        for case let path as String in walker where path.hasSuffix(".md") { files.append("docs/" + path) }
        return files.sorted()
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
    }

    /// The file's lines outside fenced code blocks, and the lines inside them.
    static func split(_ markdown: String) -> (prose: [String], code: [String]) {
        var prose: [String] = [], code: [String] = [], fenced = false
        for line in markdown.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if fenced { code.append(line) } else { prose.append(line) }
        }
        return (prose, code)
    }

    /// GitHub's anchor for a heading's text.
    static func slug(_ heading: String) -> String {
        var slug = ""
        for character in heading.lowercased() {
            if character == " " { slug.append("-") }
            else if character.isLetter || character.isNumber || character == "-" || character == "_" { slug.append(character) }
        }
        return slug
    }

    /// The anchors of a Markdown file's headings, repeated ones numbered as GitHub numbers them.
    static func anchors(_ markdown: String) -> Set<String> {
        var seen: [String: Int] = [:], anchors: Set<String> = []
        for line in split(markdown).prose {
            guard let match = line.firstMatch(of: #/^#{1,6}\s+(.+?)\s*#*\s*$/#) else { continue }
            let base = slug(String(match.1))
            let count = seen[base, default: 0]
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
            seen[base] = count + 1
        }
        return anchors
    }

    /// The targets of a file's inline links and images, outside fenced code.
    static func linkTargets(_ markdown: String) -> [String] {
        let prose = split(markdown).prose.joined(separator: "\n")
        return prose.matches(of: #/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/#).map { String($0.1) }
    }

    @Test func everyRelativeLinkNamesAnExistingFileAndHeading() throws {
        var checked = 0
        for file in try Self.markdownFiles() {
            let folder = Self.root.appendingPathComponent(file).deletingLastPathComponent()
            for target in Self.linkTargets(try Self.text(file)) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let destination = path.isEmpty ? Self.root.appendingPathComponent(file) : folder.appendingPathComponent(path).standardizedFileURL
                guard FileManager.default.fileExists(atPath: destination.path) else {
                    Issue.record("\(file): the link \(target) names no file (\(destination.path))")
                    continue
                }
                if parts.count == 2, destination.pathExtension == "md" {
                    let anchors = Self.anchors(try String(contentsOf: destination, encoding: .utf8))
                    #expect(anchors.contains(String(parts[1])), "\(file): the link \(target) names no heading of \(destination.lastPathComponent)")
                }
            }
        }
        #expect(checked > 50, "only \(checked) relative links found: is the parser broken?")
    }

    /// A command line of the docs, split into words as a shell would (quotes, a ` #` comment).
    struct DocCommandLine {
        let file: String
        let text: String
        var words: [String] = []
        /// Characters that need a shell appeared outside quotes.
        var needsShell = false

        init(file: String, text: String) {
            self.file = file
            self.text = text
            var word = "", inWord = false, quote: Character? = nil
            for character in text {
                if let open = quote {
                    if character == open { quote = nil } else { word.append(character) }
                } else if character == "'" || character == "\"" {
                    quote = character; inWord = true
                } else if character == " " || character == "\t" {
                    if inWord { words.append(word); word = ""; inWord = false }
                } else if character == "#" && !inWord {
                    break
                } else {
                    if "|<>;&$`()".contains(character) { needsShell = true }
                    word.append(character); inWord = true
                }
            }
            if inWord { words.append(word) }
            if quote != nil { needsShell = true }
        }
    }

    /// Every `tapseek …` line in the fenced code of README.md and docs/.
    static func commandLines() throws -> [DocCommandLine] {
        var lines: [DocCommandLine] = []
        for file in try markdownFiles() {
            var pending = ""
            for raw in split(try text(file)).code {
                var line = pending + raw.trimmingCharacters(in: .whitespaces)
                pending = ""
                if line.hasSuffix("\\") { pending = String(line.dropLast()) + " "; continue }
                if line.hasPrefix("$ ") { line.removeFirst(2) }
                if line.hasPrefix("tapseek ") { lines.append(DocCommandLine(file: file, text: line)) }
            }
        }
        return lines
    }

    /// The commands `tapseek help` lists (its SUBCOMMANDS section), or those of `tapseek help NAME`.
    static func commands(of parent: [String] = []) throws -> [String] {
        let help = try CLIRunner.run(["help"] + parent)
        guard help.status == 0, let section = help.stdout.range(of: "SUBCOMMANDS:") else { return [] }
        // One command a line, indented by two spaces (descriptions go on indented further),
        // until the blank line before "See 'tapseek help <subcommand>'".
        let lines = help.stdout[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        return lines.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.compactMap { line -> String? in
            guard line.hasPrefix("  "), line.dropFirst(2).first != " ", let name = line.split(separator: " ").first else { return nil }
            return name == "help" ? nil : String(name)
        }
    }

    @Test func everyDocumentedCommandHasHelp() throws {
        let lines = try Self.commandLines()
        #expect(lines.count > 30, "only \(lines.count) command lines found: is the parser broken?")
        let nested = Dictionary(uniqueKeysWithValues: try Self.commands().map { ($0, try Self.commands(of: [$0])) })
        var asked: Set<[String]> = []
        for line in lines {
            guard line.words.count > 1, !line.words[1].hasPrefix("-") else { continue }
            guard nested[line.words[1]] != nil else {
                Issue.record("\(line.file): `\(line.text)` names no command of tapseek (\(nested.keys.sorted()))")
                continue
            }
            var command = [line.words[1]]
            if let subcommands = nested[line.words[1]], !subcommands.isEmpty {
                guard line.words.count > 2, subcommands.contains(line.words[2]) else {
                    Issue.record("\(line.file): `\(line.text)` names no subcommand of \(line.words[1]) (\(subcommands))")
                    continue
                }
                command.append(line.words[2])
            }
            guard asked.insert(command).inserted else { continue }
            let help = try CLIRunner.run(["help"] + command)
            #expect(help.status == 0 && help.stdout.contains("USAGE"), "\(line.file): `tapseek help \(command.joined(separator: " "))` failed: \(help.stderr)")
        }
    }

    @Test func everyCommandIsInTheReadmeTour() throws {
        let readme = try Self.text("README.md")
        let commands = try Self.commands()
        #expect(commands.count >= 10, "tapseek help listed \(commands)")
        for command in commands {
            #expect(readme.contains("`tapseek \(command)"), "README.md's tour lacks `tapseek \(command)`")
        }
    }

    /// Options whose value is a file or folder the command writes.
    static let outputOptions: Set<String> = ["-o", "--svg", "--plot", "--annotate"]

    @Test func everyCommandLineOnTheExamplesRuns() throws {
        let dem = Self.root.appendingPathComponent("dem/jacksboro.tif")
        try #require(FileManager.default.fileExists(atPath: dem.path), "the default DEM is missing: run scripts/setup.sh")
        var ran = 0
        for line in try Self.commandLines() where !line.needsShell {
            let arguments = Array(line.words.dropFirst())
            guard arguments.contains(where: { $0.hasPrefix("examples/") }) else { continue }
            let scratch = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: scratch) }
            var run: [String] = [], written: [URL] = [], runnable = true, index = 0
            while index < arguments.count {
                let word = arguments[index]
                if Self.outputOptions.contains(word), index + 1 < arguments.count {
                    let original = URL(fileURLWithPath: arguments[index + 1])
                    let redirected = word == "--annotate" ? scratch : scratch.appendingPathComponent(original.lastPathComponent)
                    run += [word, redirected.path]
                    written.append(redirected)
                    index += 2
                    continue
                }
                if word.contains("/") && !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(word).path) {
                    runnable = false
                }
                run.append(word)
                index += 1
            }
            guard runnable else { continue }
            ran += 1
            let result = try CLIRunner.run(run, currentDirectory: Self.root)
            #expect(result.status == 0, "\(line.file): `\(line.text)` exited \(result.status): \(result.stderr.suffix(400))")
            for output in written {
                let contents = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
                let exists = FileManager.default.fileExists(atPath: output.path) && (output != scratch || !contents.isEmpty)
                #expect(exists, "\(line.file): `\(line.text)` wrote no \(output.lastPathComponent)")
            }
        }
        #expect(ran >= 5, "only \(ran) command lines on the examples ran")
    }

    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapseek-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
