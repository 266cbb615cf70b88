import IIOSensors
import Testing

@Suite struct MountMatrixTests {
    static let parsed: [(String, [[Double]])] = [
        ("0, 1, 0; 1, 0, 0; 0, 0, 1", [[0, 1, 0], [1, 0, 0], [0, 0, 1]]),
        ("1,0,0;0,1,0;0,0,1", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("-1, 0, 0; 0, -1, 0; 0, 0, 1\n", [[-1, 0, 0], [0, -1, 0], [0, 0, 1]]),
        ("0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1", [[0.7071, -0.7071, 0], [0.7071, 0.7071, 0], [0, 0, 1]]),
        ("", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("\n", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    ]

    @Test(arguments: parsed)
    func parses(text: String, rows: [[Double]]) {
        #expect(MountMatrix(parsing: text)?.rows == rows)
    }

    @Test(arguments: [
        "1, 0, 0; 0, 0, 0; 0, 0, 1",  // an all-zero row
        "1, 0, 0; 0, 1, 0; 0, 0",  // eight numbers
        "1, 0, 0, 0; 0, 1, 0; 0, 0, 1",  // ten numbers
        "1, 0, 0; 0, 1, 0",  // two rows
        "1, 0, 0; 0, 1, 0; 0, 0, 1; 1, 0, 0",  // four rows
        "a, b, c; d, e, f; g, h, i",
        "1, 0, 0; 0, nan, 0; 0, 0, 1",
        "1 0 0; 0 1 0; 0 0 1",
    ])
    func rejects(text: String) {
        #expect(MountMatrix(parsing: text) == nil)
    }

    @Test func appliesRowsToTheReading() throws {
        let matrix = try #require(MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, -1"))
        let v = matrix.apply(x: 1, y: 3.5, z: 2)
        #expect(v.x == -3.5)
        #expect(v.y == 1)
        #expect(v.z == -2)
        #expect(matrix.description == "0, -1, 0; 1, 0, 0; 0, 0, -1")
    }
}

@Suite struct AttributeParsingTests {
    @Test(arguments: [("0.000598550\n", 0.000598550), ("9.80665", 9.80665), ("1e-3", 0.001)])
    func scales(text: String, value: Double) {
        #expect(parseScale(text) == value)
    }

    @Test(arguments: ["abc", "", "0", "0.0", "1.2.3", "nan", "inf", "0x10", "1 2", "-0.5"])
    func rejectsScales(text: String) {
        #expect(parseScale(text) == nil)
    }

    @Test(arguments: [
        ("12.5 25 50 100 200", 100.0, 100.0), ("12.5 25 50 100 200", 60.0, 100.0), ("12.5 25 50 100 200", 10.0, 12.5),
        ("12.5 25 50 100 200", 400.0, 200.0), ("200 50 100", 75.0, 100.0), ("[1 1 400]", 99.5, 100.0),
        ("[10 0 1000]", 123.0, 123.0), ("[10 20 1000]", 100.0, 110.0),
    ])
    func choosesTheNearestRateAtOrAbove(available: String, wanted: Double, chosen: Double) throws {
        let rates = try #require(AvailableRates(parsing: available))
        #expect(rates.choose(atLeast: wanted) == chosen)
    }

    @Test(arguments: ["", "fast", "100 Hz", "[1 2]", "0 100"])
    func rejectsRates(text: String) {
        #expect(AvailableRates(parsing: text) == nil)
    }

    @Test func convertsRawWithOffsetThenScaleThenMatrix() throws {
        // x: own scale 0.5; y: shared scale 0.25 and offset 10; z: shared scale.
        let converter = SampleConverter(
            calibration: [
                AxisCalibration(scale: 0.5), AxisCalibration(scale: 0.25, offset: 10), AxisCalibration(scale: 0.25),
            ],
            mountMatrix: try #require(MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, -1")))
        // (2 + 0) * 0.5 = 1; (4 + 10) * 0.25 = 3.5; 8 * 0.25 = 2; then x' = -y, y' = x, z' = -z.
        let sample = converter.sample(x: 2, y: 4, z: 8, timestamp: 42)
        #expect(sample.timestamp == 42)
        #expect(sample.x == -3.5)
        #expect(sample.y == 1)
        #expect(sample.z == -2)
    }
}
