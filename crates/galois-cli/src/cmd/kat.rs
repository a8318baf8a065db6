use super::{exit, CliError, CmdResult};
use galois_cli::kat::{Summary, VectorFile, AUTO};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois kat --all-backends vectors/*.json\n",
    "  galois kat --backend clmul vectors/mcgrew_viega_gcm_spec.json\n\n",
    "Prints `FILE [backend]: N passed, M failed, K unsupported` per run; with\n",
    "--all-backends, last the line `not run on this CPU: NAME (FAMILY), ...` (or\n",
    "`none`): the backends of every family compiled in that this CPU cannot run.\n",
    "A run that\n",
    "checks no case, or a --backend that is not available for a file on this CPU,\n",
    "is a usage error (exit 2).\n\n",
    super::exit_codes!()
))]
pub struct Args {
    /// Vector files in the vectors-v1 schema.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Pin one implementation (a GHASH backend such as clmul or
    /// table8_vartime, or "portable"); default: automatic selection.
    #[arg(long, conflicts_with = "all_backends")]
    backend: Option<String>,
    /// Run each file once per implementation available on this CPU.
    #[arg(long)]
    all_backends: bool,
    /// Print every failure (default: the first 10 per run).
    #[arg(long, short)]
    verbose: bool,
}

pub fn run(a: Args) -> CmdResult {
    let mut files = Vec::new();
    for path in &a.files {
        let name = path.display();
        // A file that cannot be read is an I/O error; one that is not
        // UTF-8 text is a malformed vector file, like bad JSON.
        let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => CliError::usage(format!("{name}: {e}")),
            _ => CliError::io(format!("{name}: {e}")),
        })?;
        let file = VectorFile::parse(&text).map_err(|e| CliError::usage(format!("{name}: {e}")))?;
        // A pinned implementation must exist for every file: a run that
        // checks nothing must not look like a pass.
        if let Some(b) = a.backend.as_deref().filter(|b| *b != AUTO) {
            let imps = file.implementations();
            if !imps.iter().any(|i| i == b) {
                return Err(CliError::usage(format!(
                    "--backend {b}: not an implementation of {} on this CPU ({name}); \
                     available: {}",
                    file.algorithm,
                    imps.join(", ")
                )));
            }
        }
        files.push((path, file));
    }
    let mut any_failed = false;
    let mut unchecked = Vec::new();
    let mut total = Summary::default();
    let mut ran = std::collections::BTreeSet::new();
    for (path, file) in &files {
        let name = path.display();
        let imps = if a.all_backends {
            file.implementations()
        } else {
            vec![a.backend.clone().unwrap_or_else(|| AUTO.to_string())]
        };
        for imp in imps {
            let s = file.run(&imp);
            ran.insert(imp.clone());
            let label = if imp == AUTO {
                String::new()
            } else {
                format!(" [{imp}]")
            };
            println!("{name}{label}: {}", s.counts());
            let shown = if a.verbose { usize::MAX } else { 10 };
            for f in s.failures.iter().take(shown) {
                println!("  FAIL {f}");
            }
            if s.failures.len() > shown {
                println!(
                    "  ... {} more failures (--verbose shows all)",
                    s.failures.len() - shown
                );
            }
            for (reason, n) in &s.unsupported_reasons {
                println!("  unsupported ({n}): {reason}");
            }
            any_failed |= s.failed > 0;
            if s.passed + s.failed == 0 {
                unchecked.push(format!("{name}{label}"));
            }
            total.passed += s.passed;
            total.failed += s.failed;
            total.unsupported += s.unsupported;
        }
    }
    if a.files.len() > 1 || a.all_backends {
        println!("total: {}", total.counts());
    }
    if a.all_backends {
        // Every backend of a file's family that the registry says this CPU
        // can run must have run: a narrowed list would pass with fewer.
        let missed: Vec<String> = files
            .iter()
            .flat_map(|(_, f)| f.required())
            .filter(|i| !ran.contains(i))
            .collect();
        let missing = galois_cli::kat::not_run();
        println!(
            "not run on this CPU: {}",
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            }
        );
        if !missed.is_empty() {
            println!("FAIL available here but not run: {}", missed.join(", "));
            any_failed = true;
        }
    }
    if any_failed {
        return Ok(ExitCode::from(exit::KAT_FAILED));
    }
    if !unchecked.is_empty() {
        return Err(CliError::usage(format!(
            "no case was checked in {} (every case unsupported, or none)",
            unchecked.join(", ")
        )));
    }
    Ok(ExitCode::SUCCESS)
}
