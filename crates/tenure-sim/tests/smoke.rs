use tenure_sim::{Algorithm, Scenario, World};

#[test]
fn smoke() {
    for a in Algorithm::ALL {
        let s = Scenario::new(a, 5, 7, 60_000);
        let mut w = World::new(&s).unwrap();
        let t = std::time::Instant::now();
        w.run();
        println!(
            "{a}: {:?} {:?}\n leaders {:?} violations {:?} wall {:?}",
            w.metrics(),
            w.snapshot().store,
            w.leaders(),
            w.violations(),
            t.elapsed()
        );
    }
}
