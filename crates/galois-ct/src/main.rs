//! galois-ct: constant-time checks of the galois library.
//!
//! ```text
//! galois-ct features             the CPU features the library detects
//! galois-ct list                 checks this CPU (or valgrind's view of it) can run
//! galois-ct run TARGET [OP]      a target's checks; run it under valgrind --tool=memcheck
//! galois-ct all                  every check in one process, errors counted per check
//! galois-ct dudect [-n N] [--list] [TEST...]   the statistical timing test
//! ```
//!
//! Build it with `RUSTFLAGS='--cfg galois_ctgrind'` for the valgrind checks,
//! so that the library declassifies its public-by-design results (tag
//! verdicts, refused keys); `scripts/ct.sh` does all of this.

mod checks;
mod dudect;
mod vg;

use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: galois-ct features | list | run TARGET [OP] | all | dudect [-n N] [--list] [TEST...]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    match cmd.as_str() {
        "features" => {
            // What the CPU (or valgrind's synthetic CPU) reports.
            for (f, has) in galois_aead::detect::cpu_features() {
                println!("{f} {}", if has { "yes" } else { "no" });
            }
            ExitCode::SUCCESS
        }
        "list" => {
            let (checks, skipped) = checks::list();
            for c in &checks {
                println!(
                    "{} {} {}",
                    c.target,
                    c.op,
                    if c.expect_leak { "leak" } else { "ct" }
                );
            }
            for (t, why) in &skipped {
                println!("# skip {t}: {why}");
            }
            ExitCode::SUCCESS
        }
        "run" => {
            // run TARGET [OP]: the target's operations (all, or OP), each
            // with the errors memcheck reported during it.
            let Some(t) = args.get(1) else {
                return usage();
            };
            warn_cfg();
            let (list, _) = checks::list();
            let ops: Vec<&str> = match args.get(2) {
                Some(op) => vec![op.as_str()],
                None => list
                    .iter()
                    .filter(|c| &c.target == t)
                    .map(|c| c.op)
                    .collect(),
            };
            if ops.is_empty() {
                eprintln!("galois-ct: no operations for target {t}");
                return ExitCode::from(2);
            }
            for op in ops {
                let before = vg::errors();
                if let Err(e) = checks::run(t, op) {
                    eprintln!("galois-ct: {e}");
                    return ExitCode::from(2);
                }
                println!("check {t} {op} errors {}", vg::errors() - before);
            }
            println!("ok checksum {:016x}", checks::checksum());
            ExitCode::SUCCESS
        }
        "all" => {
            warn_cfg();
            let (list, _) = checks::list();
            let mut bad = 0;
            for c in &list {
                let before = vg::errors();
                if let Err(e) = checks::run(&c.target, c.op) {
                    eprintln!("galois-ct: {e}");
                    return ExitCode::from(2);
                }
                let n = vg::errors() - before;
                let flagged = n > 0;
                let ok = flagged == c.expect_leak || !vg::running();
                if !ok {
                    bad += 1;
                }
                println!(
                    "{:<32} {:<14} errors {:>5}  {}",
                    c.target,
                    c.op,
                    n,
                    if ok { "as expected" } else { "UNEXPECTED" }
                );
            }
            if bad > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        "dudect" => dudect::main(&args[1..]),
        _ => usage(),
    }
}

fn warn_cfg() {
    if cfg!(not(galois_ctgrind)) && vg::running() {
        eprintln!(
            "galois-ct: built without --cfg galois_ctgrind: the library's tag verdicts are \
             not declassified and will be reported"
        );
    }
}
