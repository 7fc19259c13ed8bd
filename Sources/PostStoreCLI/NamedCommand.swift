import ArgumentParser

/// The command a `poststore` command line names, found before argument-parser parses it, and what is wrong with how
/// it names one.
///
/// The root command takes no argument of its own, so its first word that is not an option must be a command. When
/// it is not, argument-parser reports what it trips over next (`qeury --store x` gives "Unknown option '--store'",
/// `qeury` alone "Unexpected argument"); this says instead that the word is not a command and, when one is close,
/// which it may have meant. Options put before the command are shown after it, where they belong. A command line
/// that asks the tool itself for its help, its version or a completion script is left to argument-parser.
///
/// For example:
///
/// ```swift
/// let named = NamedCommand(["qeury", "--store", "x"], among: PostStoreCommand.configuration.subcommands)
/// // named.problem == "'qeury' is not a command. Did you mean 'query'?"
/// ```
struct NamedCommand {
    /// The command named, when one is: the command whose help a usage error points at.
    let command: (any ParsableCommand.Type)?
    /// A usage error's message, when the command line does not name a command where one belongs.
    let problem: String?

    /// The root's own options: argument-parser's help, version and completion flags.
    private static let toolOptions: Set<String> = [
        "-h", "--help", "-help", "--help-hidden", "-help-hidden", "--version", "--experimental-dump-help",
        "--generate-completion-script",
    ]

    /// Finds the command that `arguments` name.
    ///
    /// - Parameters:
    ///   - arguments: The command line after the program's name.
    ///   - commands: The root's subcommands (argument-parser adds `help`).
    init(_ arguments: [String], among commands: [any ParsableCommand.Type]) {
        func isOption(_ word: String) -> Bool { word.hasPrefix("-") && word != "-" }
        func lookUp(_ word: String) -> (any ParsableCommand.Type)? {
            commands.first { Self.names(of: $0).contains(word) }
        }
        // Past `--` every word is an argument: argument-parser says what is wrong there.
        let words = arguments.prefix { $0 != "--" }
        let positions = words.indices.filter { !isOption(words[$0]) }
        guard let first = positions.first,
            !words[..<first].contains(where: { Self.toolOptions.contains($0) || Self.asksForCompletion($0) })
        else {
            (command, problem) = (nil, nil)
            return
        }
        if words[first] == "help" {
            // `poststore help WORD`: argument-parser shows the tool's help for a WORD that is not a command.
            let next = positions.dropFirst().first
            command = nil
            problem = next.flatMap {
                words[$0] == "help" || lookUp(words[$0]) != nil ? nil : Self.notACommand(words[$0], commands)
            }
            return
        }
        // The first word may be the value of an option put before the command (`--store x.sqlite query`): the
        // command is then the first word that follows no option which could take it as its value.
        let candidate =
            lookUp(words[first]) != nil
            ? first
            : positions.first { $0 == words.startIndex || !isOption(words[$0 - 1]) || words[$0 - 1].contains("=") }
                ?? first
        guard let named = lookUp(words[candidate]) else {
            (command, problem) = (nil, Self.notACommand(words[candidate], commands))
            return
        }
        command = named
        problem = candidate == words.startIndex ? nil : Self.optionsAfter(arguments, command: candidate)
    }

    /// The names a command answers to.
    private static func names(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.commandName.map { [$0] + command.configuration.aliases } ?? []
    }

    /// Whether `word` is argument-parser's request for completions (`---completion`).
    private static func asksForCompletion(_ word: String) -> Bool {
        word.hasPrefix("---") || word.hasPrefix("--generate-completion-script=")
    }

    /// "'qeury' is not a command. Did you mean 'query'?", or the list of commands when none is close.
    static func notACommand(_ word: String, _ commands: [any ParsableCommand.Type]) -> String {
        let names = commands.flatMap(names(of:))
        let nearest = nearest(to: word, among: names + ["help"])
        guard nearest.isEmpty else {
            return "'\(word)' is not a command. Did you mean "
                + nearest.map { "'\($0)'" }.joined(separator: " or ") + "?"
        }
        return "'\(word)' is not a command. The commands are \(names.dropLast().joined(separator: ", ")) and "
            + "\(names.last ?? "help")."
    }

    /// The names closest to `word`, when they are close: one edit away from a name of four letters or fewer, two from
    /// a longer one (so a swapped pair or a missing letter is caught, an unrelated word is not).
    static func nearest(to word: String, among names: [String]) -> [String] {
        let distances = names.map { (name: $0, distance: word.editDistance(to: $0)) }
            .filter { $0.distance <= ($0.name.count > 4 ? 2 : 1) && $0.distance < word.count }
        guard let best = distances.map(\.distance).min() else { return [] }
        return distances.filter { $0.distance == best }.map(\.name)
    }

    /// "Options go after the command: poststore query --store x.sqlite": the command line with the command first.
    private static func optionsAfter(_ arguments: [String], command position: Int) -> String {
        var reordered = arguments
        let command = reordered.remove(at: position)
        return "Options go after the command: "
            + (["poststore", command] + reordered.map(\.shellQuoted)).joined(separator: " ")
    }
}
