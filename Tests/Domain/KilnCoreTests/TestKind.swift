import KilnCore

/// A kind admitting `Input`, for tests of what admission checks; its deadline is diag.sleep's (an hour and 100 s).
func testKind<Input: KindInput>(_ input: Input.Type, name: String = "test.kind") -> JobKind {
    JobKind(name: name, input: input, jobClass: .io, timeout: .seconds(3700), retry: .exponentialJitter(maxAttempts: 3))
}
