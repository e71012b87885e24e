import KilnCore
import Metrics

/// The providers' readings as gauges on the worker's `/metrics`, set at every heartbeat: each route step's circuit
/// (0 closed, 1 half-open, 2 open), whether each provider is parked (0 or 1), and each capped model's slots in use and
/// cap. Circuits are per process; parks and slots are fleet-wide, so every worker reports the same value of those.
enum ProviderGauges {
    static func record(_ readings: [ProviderReading]) {
        var parked: [String: Bool] = [:]
        for reading in readings {
            Gauge(
                label: "kiln_provider_circuit_state",
                dimensions: [("route", reading.route), ("provider", reading.provider), ("model", reading.model)]
            ).record(reading.circuit.gaugeValue)
            parked[reading.provider] = parked[reading.provider] == true || reading.parkedUntilMilliseconds != nil
            if let cap = reading.slotCap {
                let model = [("provider", reading.provider), ("model", reading.model)]
                Gauge(label: "kiln_provider_slots_in_use", dimensions: model).record(reading.slotsInUse ?? 0)
                Gauge(label: "kiln_provider_slots_cap", dimensions: model).record(cap)
            }
        }
        for (provider, isParked) in parked {
            Gauge(label: "kiln_provider_parked", dimensions: [("provider", provider)]).record(isParked ? 1 : 0)
        }
    }
}

extension ProviderReading.Circuit {
    fileprivate var gaugeValue: Int {
        switch self {
        case .closed: 0
        case .halfOpen: 1
        case .open: 2
        }
    }
}
