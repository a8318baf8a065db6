//! galois-ct: constant-time checks of the galois library.
//!
//! ```text
//! galois-ct list                 checks this CPU (or valgrind's view of it) can run
//! galois-ct run TARGET OP        one check; run it under valgrind --tool=memcheck
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
    eprintln!("usage: galois-ct list | run TARGET OP | all | dudect [-n N] [--list] [TEST...]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    match cmd.as_str() {
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
            let (Some(t), Some(op)) = (args.get(1), args.get(2)) else {
                return usage();
            };
            warn_cfg();
            match checks::run(t, op) {
                Ok(()) => {
                    println!("ok {t} {op} checksum {:016x}", checks::checksum());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("galois-ct: {e}");
                    ExitCode::from(2)
                }
            }
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
