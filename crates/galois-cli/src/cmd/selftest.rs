use super::{exit, CmdResult};
use galois_aead::{AesGcm, GhashBackend};
use galois_cli::kat::{VectorFile, AUTO};
use std::process::ExitCode;

/// The known answers of vectors/, compiled in.
pub const VECTORS: &[(&str, &str)] = &[
    (
        "mcgrew_viega_gcm_spec.json",
        include_str!("../../../../vectors/mcgrew_viega_gcm_spec.json"),
    ),
    (
        "poly1305aes_bernstein_appendix_b.json",
        include_str!("../../../../vectors/poly1305aes_bernstein_appendix_b.json"),
    ),
    (
        "poly1305_onetime_rfc8439.json",
        include_str!("../../../../vectors/poly1305_onetime_rfc8439.json"),
    ),
    (
        "gcm64_tdea_sample.json",
        include_str!("../../../../vectors/gcm64_tdea_sample.json"),
    ),
];

pub fn run() -> CmdResult {
    let features: Vec<String> = galois_aead::detect::cpu_features()
        .into_iter()
        .map(|(n, on)| format!("{}{n}", if on { "+" } else { "-" }))
        .collect();
    println!("cpu: {}", features.join(" "));
    let gcm = AesGcm::new(&[0u8; 16]).expect("AES-128 key");
    println!(
        "AES-GCM: aes={} ghash={}",
        gcm.aes_backend().name(),
        gcm.backend().name()
    );
    println!(
        "GHASH backends available: {}",
        GhashBackend::available()
            .iter()
            .map(|b| b.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut failed = false;
    for (name, text) in VECTORS {
        let f = VectorFile::parse(text).expect("compiled-in vectors parse");
        let s = f.run(AUTO);
        println!("{name}: {}", s.counts());
        for fl in &s.failures {
            println!("  FAIL {fl}");
        }
        for (reason, n) in &s.unsupported_reasons {
            println!("  unsupported ({n}): {reason}");
        }
        failed |= s.failed > 0;
    }
    Ok(if failed {
        ExitCode::from(exit::KAT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
