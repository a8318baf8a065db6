use super::{CliError, CmdResult};
use galois_aead::AesGcm;
use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::{json, Value};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Example:\n",
    "  galois gen-vectors --count 1000 --seed 7 -o random.json && galois kat random.json\n\n",
    super::exit_codes!()
))]
pub struct Args {
    /// Number of cases.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Seed for the pseudo-random generator (the same seed gives the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Key length: 16, 24 or 32.
    #[arg(long, default_value_t = 16)]
    key_bytes: usize,
    /// IV length; 0 picks a random length from 1 to 64 per case.
    #[arg(long, default_value_t = 12)]
    iv_bytes: usize,
    /// Tag length: 16, or 12..15 (12-byte IVs), or 4..16 with any IV (permissive).
    #[arg(long, default_value_t = 16)]
    tag_bytes: usize,
    /// Largest additional data (lengths are uniform in 0..=max).
    #[arg(long, default_value_t = 64)]
    max_aad_bytes: usize,
    /// Largest plaintext (lengths are uniform in 0..=max).
    #[arg(long, default_value_t = 256)]
    max_pt_bytes: usize,
    /// Fraction of cases tampered (a flipped bit in tag, ciphertext or AAD) and marked invalid.
    #[arg(long, default_value_t = 0.0)]
    invalid_fraction: f64,
    /// Output file (default: standard output).
    #[arg(short, long)]
    output: Option<std::path::PathBuf>,
}

fn rand_bytes(rng: &mut StdRng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill(&mut v[..]);
    v
}

pub fn run(a: Args) -> CmdResult {
    if !matches!(a.key_bytes, 16 | 24 | 32) {
        return Err(CliError::usage(format!(
            "--key-bytes must be 16, 24 or 32, not {}",
            a.key_bytes
        )));
    }
    if !(0.0..=1.0).contains(&a.invalid_fraction) {
        return Err(CliError::usage(
            "--invalid-fraction must be between 0 and 1",
        ));
    }
    let mut rng = StdRng::seed_from_u64(a.seed);
    let mut tests = Vec::with_capacity(a.count);
    let (mut valid, mut invalid) = (0, 0);
    for i in 0..a.count {
        let key = rand_bytes(&mut rng, a.key_bytes);
        let iv_len = if a.iv_bytes == 0 {
            rng.random_range(1..=64)
        } else {
            a.iv_bytes
        };
        let iv = rand_bytes(&mut rng, iv_len);
        let aad_len = rng.random_range(0..=a.max_aad_bytes);
        let aad = rand_bytes(&mut rng, aad_len);
        let pt_len = rng.random_range(0..=a.max_pt_bytes);
        let pt = rand_bytes(&mut rng, pt_len);
        let opts = galois_cli::kat::gcm::policy(a.tag_bytes, iv_len)
            .map_err(|e| CliError::usage(format!("--tag-bytes {}: {e}", a.tag_bytes)))?;
        let gcm = AesGcm::with_options(&key, opts).map_err(|e| CliError::usage(e.to_string()))?;
        let mut ct = pt.clone();
        let tag = gcm
            .seal_in_place_detached(&iv, &aad, &mut ct)
            .map_err(|e| CliError::usage(e.to_string()))?;
        let mut tag = tag.as_bytes().to_vec();
        let mut aad_out = aad.clone();
        let mut case: Value;
        if rng.random_bool(a.invalid_fraction) {
            // Tamper with one bit of tag, ciphertext or AAD.
            let mut targets = vec!["ModifiedTag"];
            if !ct.is_empty() {
                targets.push("ModifiedCiphertext");
            }
            if !aad.is_empty() {
                targets.push("ModifiedAad");
            }
            let what = targets[rng.random_range(0..targets.len())];
            let buf = match what {
                "ModifiedTag" => &mut tag,
                "ModifiedCiphertext" => &mut ct,
                _ => &mut aad_out,
            };
            let bit = rng.random_range(0..buf.len() * 8);
            buf[bit / 8] ^= 1 << (bit % 8);
            case = json!({"result": "invalid", "flags": [what], "pt": Value::Null});
            invalid += 1;
        } else {
            case = json!({"result": "valid", "pt": hex::encode(&pt)});
            valid += 1;
        }
        let obj = case.as_object_mut().unwrap();
        obj.insert("id".into(), json!(format!("random-{}-{i}", a.seed)));
        obj.insert("key".into(), json!(hex::encode(&key)));
        obj.insert("iv".into(), json!(hex::encode(&iv)));
        obj.insert("aad".into(), json!(hex::encode(&aad_out)));
        obj.insert("ct".into(), json!(hex::encode(&ct)));
        obj.insert("tag".into(), json!(hex::encode(&tag)));
        tests.push(case);
    }
    let doc = json!({
        "schema": "vectors-v1",
        "algorithm": "AES-GCM",
        "description": format!("{} random AES-GCM cases computed by galois gen-vectors (seed {})", a.count, a.seed),
        "provenance": {"generator": format!("galois {} gen-vectors", env!("CARGO_PKG_VERSION"))},
        "counts": {"total": a.count, "valid": valid, "invalid": invalid},
        "tests": tests,
    });
    let text = serde_json::to_string_pretty(&doc).expect("JSON") + "\n";
    match a.output {
        Some(p) => {
            std::fs::write(&p, text).map_err(|e| CliError::io(format!("{}: {e}", p.display())))?
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
