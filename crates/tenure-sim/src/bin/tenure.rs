//! The `tenure` command: headless runs, chaos campaigns and failover measurements.

fn main() -> std::process::ExitCode {
    tenure_sim::cli::main()
}
