import ShakeDetection
import TestSupport
import Testing

/// Expects `samples` to make exactly one shake with a rule turned off by `turnOff` and none with the
/// defaults: the rule, not another check, is what stops them (a test of a rule proves nothing if the
/// motion made no shake without it). `label` names the case (its rate).
func expectTheRuleStops(
    _ samples: [Sample], turnOff: (inout ShakeDetectorConfiguration) -> Void, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var open = ShakeDetectorConfiguration()
    turnOff(&open)
    #expect(
        detect(samples, with: ShakeDetector(configuration: open)).count == 1, "\(label), rule off",
        sourceLocation: sourceLocation)
    #expect(detect(samples, with: ShakeDetector()).isEmpty, "\(label)", sourceLocation: sourceLocation)
}
