import NIOCore
import Testing
import UndoProtocol

/// Every string field's length and character rule, at the edge: the codec refuses a call whose
/// field breaks its rule with InvalidParameter naming the field.
@Suite struct FieldRuleTests {
    static let rules: [(String, FieldRule, String, Bool)] = [
        ("reverse-DNS app id", .appID, "org.example.Notes", true),
        ("app id with dashes and digits", .appID, "io.shaked-test.app_2", true),
        ("app id of one element", .appID, "notes", false),
        ("app id with an empty element", .appID, "org..Notes", false),
        ("app id element starting with a digit", .appID, "org.2notes", false),
        ("app id with a space", .appID, "org.example.My Notes", false),
        ("app id of 256 bytes", .appID, "org." + String(repeating: "a", count: 252), false),
        ("app id with non-ASCII", .appID, "org.exämple.Notes", false),
        ("plain name", .name, "Notes", true),
        ("Korean name", .name, "메모", true),
        ("name of 64 characters", .name, String(repeating: "n", count: 64), true),
        ("name of 65 characters", .name, String(repeating: "n", count: 65), false),
        ("empty name", .name, "", false),
        ("name only spaces", .name, "  ", false),
        ("NUL", .name, "a\u{0}b", false),
        ("CR", .name, "a\rb", false),
        ("LF", .name, "a\nb", false),
        ("ESC", .name, "\u{1B}[2J", false),
        ("DEL", .name, "a\u{7F}", false),
        ("C1 next line", .name, "a\u{85}", false),
        ("right-to-left override", .name, "a\u{202E}b", false),
        ("first strong isolate", .name, "a\u{2068}b", false),
        ("Arabic letter mark", .name, "a\u{061C}b", false),
        ("line separator", .name, "a\u{2028}b", false),
        ("emoji of many scalars counts as one character", .label, String(repeating: "👩‍👩‍👧", count: 4), true),
        ("more than 4 bytes a character", .label, String(repeating: "👩‍👩‍👧", count: 8), false),
        ("action name of 33 characters", .actionName, String(repeating: "a", count: 33), false),
        ("token", .token, "0123456789abcdef0123456789abcdef", true),
        ("token in upper case", .token, "0123456789ABCDEF0123456789ABCDEF", false),
        ("short token", .token, "abc", false),
        ("intent id", .intentID, "intent-42", true),
        ("intent id without digits", .intentID, "intent-", false),
        ("intent id with a path", .intentID, "intent-1/../x", false),
    ]

    @Test("each rule accepts and refuses what it documents", arguments: rules)
    func rule(what: String, rule: FieldRule, value: String, allowed: Bool) {
        #expect(rule.allows(value) == allowed, "\(what)")
    }

    static let calls: [(String, String, String)] = [
        ("Subscribe", #"{"app": "notes", "name": "Notes"}"#, "app"),
        ("Subscribe", #"{"app": "org.example.Notes", "name": "x\u001b[31m"}"#, "name"),
        ("SetContext", #"{"token": "nope", "focused": true}"#, "token"),
        ("SetContext", #"{"token": "0123456789abcdef0123456789abcdef", "focused": true, "undo": "a\u202eb"}"#, "undo"),
        (
            "AnswerIntent",
            #"{"token": "0123456789abcdef0123456789abcdef", "intent": "intent-1", "prompt": {"title": "Undo\rTyping", "actions": []}}"#,
            "prompt.title"
        ),
        (
            "ReportResult",
            #"{"token": "0123456789abcdef0123456789abcdef", "intent": "intent-1", "summary": "\u0000"}"#,
            "summary"
        ),
        ("RegisterAgent", #"{"name": ""}"#, "name"),
    ]

    @Test("the codec checks the fields of every call it decodes", arguments: calls)
    func codecChecks(method: String, parameters: String, field: String) throws {
        let message = ByteBuffer(string: #"{"method": "io.shaked.Undo.\#(method)", "parameters": \#(parameters)}"#)
        let codec = VarlinkCodec()
        #expect(throws: VarlinkError.invalidParameter(field)) {
            switch method {
            case "Subscribe": _ = try codec.parameters(SubscribeParameters.self, of: message)
            case "SetContext": _ = try codec.parameters(SetContextParameters.self, of: message)
            case "AnswerIntent": _ = try codec.parameters(AnswerIntentParameters.self, of: message)
            case "ReportResult": _ = try codec.parameters(ReportResultParameters.self, of: message)
            default: _ = try codec.parameters(RegisterAgentParameters.self, of: message)
            }
        }
    }
}
