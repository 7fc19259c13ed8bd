/// How long a test lets something that normally takes moments run before it calls it a hang: five minutes.
///
/// Swift Testing starts a suite's tests at once on the concurrency pool, one thread a core. Under a sanitizer on two
/// cores that pool stayed busy for two minutes at a time (the deep checks, 2026-11-28: trivial tests "passed after
/// 119 seconds"), and any test awaiting there waited as long, whatever it awaited. A limit that such a stall can
/// reach fails a correct test, so every wait for "soon" and every upper bound on "did not wait for the hang" uses
/// this one, well under the ten-minute hangs the tests set up (`.hang(.seconds(600))`, a lock held ten minutes).
public let hangLimit: Duration = .seconds(300)
