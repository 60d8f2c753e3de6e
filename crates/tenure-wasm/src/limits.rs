//! The largest inputs the bindings accept, checked before anything is allocated.
//!
//! A list or string from JS is measured first (its `length`, which a sparse array or a Proxy
//! may report as anything up to 2^32 - 1) and refused with a `RangeError` coded
//! `ERR_TOO_LARGE`, naming the field and the limit, before a single element is read or a byte
//! of wasm memory is reserved for it: an allocation the module cannot make would abort it
//! (`RuntimeError: unreachable`) and poison every instance (docs/design.md, the sans-IO
//! contract: no input may trap or grow memory without bound). Each limit is far above what
//! the shapes need in practice; `pkg/README.md` lists them.

/// `config.peers` of `RaftNode` and `BullyNode`: other members of one cluster.
pub(crate) const MAX_PEERS: usize = 1_024;

/// `persisted.log` of `RaftNode.restart`: log entries restored at once.
pub(crate) const MAX_LOG_ENTRIES: usize = 1_000_000;

/// `entries` of one AppendEntries message (or one `Persist` list).
pub(crate) const MAX_APPEND_ENTRIES: usize = 65_536;

/// `faults` of a scenario: more than a scenario file the CLI reads can hold (8 MiB of text,
/// at least 36 bytes a fault, `{"at_ms":1,"fault":{"type":"heal"}},`: about 233,000), so
/// every scenario `tenure chaos --emit-scenario` writes and `tenure run` reads loads here
/// too (a ten-hour chaos run has some 20,000 faults; 10,000 refused it). [`MAX_VALUES`]
/// still bounds the whole.
pub(crate) const MAX_FAULTS: usize = 250_000;

/// A list of processes in a scenario or fault (`nodes`, `from`, `to`, `groups` and each
/// group): at most 64 nodes plus the store and the resource, repeated at will.
pub(crate) const MAX_PROCS: usize = 256;

/// `latency_ms`: a `[min, max]` pair.
pub(crate) const MAX_LATENCY_PAIR: usize = 2;

/// `samples_ms` of a `failoverPlot` series: as many as one `failoverMeasure` returns (one per
/// run, `lab::MAX_RUNS`), so a measurement is always drawn.
pub(crate) const MAX_SAMPLES: usize = 100_000;

/// Any other list inside scenario or fault data.
pub(crate) const MAX_OTHER_LIST: usize = 256;

/// Keys of one object inside scenario or fault data (the widest, `config`, defines 20).
pub(crate) const MAX_OBJECT_KEYS: usize = 256;

/// Values (objects, lists, strings, numbers...) in one scenario or fault, all nesting
/// included: the per-list limits multiply (10000 faults of 256 groups of 256 processes), so
/// the whole is bounded too.
pub(crate) const MAX_VALUES: usize = 1_000_000;

/// A string field (a lease key, a `type`, a scenario string), in UTF-16 code units.
pub(crate) const MAX_STRING: usize = 65_536;

/// `Simulation.fromJSON(text)`: scenario JSON text, in UTF-16 code units (8 MiB of ASCII).
pub(crate) const MAX_SCENARIO_TEXT: usize = 8 * 1_024 * 1_024;

/// The limit on a list in scenario or fault data at `path` (`scenario.faults`,
/// `fault.groups[1]`, `scenario.network.latency_ms`), named by its last key.
pub(crate) fn scenario_list(path: &str) -> usize {
    let last = path.rsplit('.').next().unwrap_or(path);
    let key = last.split('[').next().unwrap_or(last);
    match key {
        "faults" if !last.contains('[') => MAX_FAULTS,
        "nodes" | "from" | "to" | "groups" => MAX_PROCS,
        "latency_ms" if !last.contains('[') => MAX_LATENCY_PAIR,
        "samples_ms" => MAX_SAMPLES,
        _ => MAX_OTHER_LIST,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_lists_are_limited_by_their_key() {
        assert_eq!(scenario_list("scenario.faults"), MAX_FAULTS);
        assert_eq!(scenario_list("scenario.faults[3].groups"), MAX_PROCS);
        assert_eq!(scenario_list("fault.groups[1]"), MAX_PROCS);
        assert_eq!(scenario_list("fault.nodes"), MAX_PROCS);
        assert_eq!(
            scenario_list("scenario.network.latency_ms"),
            MAX_LATENCY_PAIR
        );
        assert_eq!(scenario_list("plot series[0].samples_ms"), MAX_SAMPLES);
        assert_eq!(scenario_list("scenario.faults[2]"), MAX_OTHER_LIST);
        assert_eq!(scenario_list("scenario.other"), MAX_OTHER_LIST);
    }
}
