//! Adding a backend is one file plus one table line: in each family's
//! `mod.rs`, outside its tests and comments, a backend's variant is named by
//! its registry table line and nowhere else (the `portable = X;` header may
//! name the fallback once more). No hand-written match, list or order that a
//! new backend would also have to join. The public side (names, order and
//! constant time) is checked against lists written here by hand.

use std::path::Path;

/// (variant, module, CLI name, constant time, probe) of each table line.
type Line = (String, String, String, bool, String);

fn source(family: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/{family}/mod.rs"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The code of a family's mod.rs before its first `#[cfg(test)]`, without
/// comments and with string literals emptied.
fn code(src: &str) -> String {
    let src = src.split("#[cfg(test)]").next().unwrap();
    let mut out = String::new();
    for line in src.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut in_str = false;
        for c in line.chars() {
            if c == '"' {
                in_str = !in_str;
                out.push(c);
            } else if !in_str {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The table lines of `registry! { ... }` in a family's mod.rs.
fn table(src: &str) -> Vec<Line> {
    let start = src.find("registry! {").expect("a registry! table");
    let body = &src[start..];
    let mut lines = Vec::new();
    // A line: `Variant => module, "name", ct = bool, detect = path,` (the
    // doc string may follow on the next line).
    for l in body.lines().take_while(|l| !l.starts_with('}')) {
        let l = l.trim();
        let Some((variant, rest)) = l.split_once(" => ") else {
            continue;
        };
        let f: Vec<&str> = rest.splitn(5, ',').map(str::trim).collect();
        assert!(f.len() >= 4, "table line {l:?}");
        let name = f[1].trim_matches('"').to_string();
        let ct = match f[2] {
            "ct = true" => true,
            "ct = false" => false,
            other => panic!("{l:?}: {other:?}"),
        };
        let probe = f[3]
            .strip_prefix("detect = ")
            .expect("detect = probe")
            .to_string();
        lines.push((variant.to_string(), f[0].to_string(), name, ct, probe));
    }
    assert!(!lines.is_empty(), "empty table");
    lines
}

fn count_word(text: &str, word: &str) -> usize {
    text.match_indices(word)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !ident(before) && !ident(after)
        })
        .count()
}

fn check_family(family: &str) {
    let src = source(family);
    let code = code(&src);
    let lines = table(&src);
    let portable = code
        .lines()
        .find_map(|l| l.trim().strip_prefix("portable = "))
        .map(|v| v.trim_end_matches(';').to_string())
        .expect("portable = X;");
    for (variant, module, ..) in &lines {
        let want = 1 + usize::from(*variant == portable);
        assert_eq!(
            count_word(&code, variant),
            want,
            "{family}: backend {variant} is named outside its table line"
        );
        assert!(
            code.contains(&format!("mod {module};")) || code.contains(&format!("use {module}")),
            "{family}: no module for {variant}"
        );
    }
}

/// `ALL` (names, order, constant time) against a list written here by hand
/// per target: the order automatic selection tries, as documented, and not
/// the table the enum is generated from. `want`: groups of names, each
/// with whether the target compiles them; a backend is constant-time
/// exactly when its name does not end in `_vartime`.
fn names_and_order<B: Copy>(
    all: &[B],
    name: impl Fn(B) -> &'static str,
    ct: impl Fn(B) -> bool,
    want: &[(bool, &[&str])],
) {
    let got: Vec<(&str, bool)> = all.iter().map(|&b| (name(b), ct(b))).collect();
    let want: Vec<(&str, bool)> = want
        .iter()
        .filter(|g| g.0)
        .flat_map(|g| g.1.iter().map(|&n| (n, !n.ends_with("_vartime"))))
        .collect();
    assert_eq!(got, want);
}

const X86: bool = cfg!(target_arch = "x86_64");
const ARM: bool = cfg!(all(target_arch = "aarch64", target_endian = "little"));

#[test]
fn ghash_backends_are_the_documented_list() {
    use galois_aead::GhashBackend as B;
    let want: &[(bool, &[&str])] = &[
        (X86, &["vaes_avx512", "vaes_avx2", "aesni_clmul", "clmul"]),
        (ARM, &["pmull_eor3", "pmull"]),
        (true, &["ctmul64", "bitserial"]),
        (
            true,
            &[
                "table8_vartime",
                "table4_vartime",
                "shoup8_vartime",
                "shoup4_vartime",
            ],
        ),
    ];
    names_and_order(B::ALL, B::name, B::is_constant_time, want);
}

#[test]
fn gf64_and_poly1305_backends_are_one_table_line_each() {
    use galois_aead::gf64::Gf64Backend as F;
    use galois_aead::poly1305::Poly1305Backend as P;
    check_family("gf64");
    check_family("poly1305");
    let gf64: &[(bool, &[&str])] = &[
        (X86, &["gf64-clmul"]),
        (true, &["gf64-ctmul", "gf64-bitserial"]),
    ];
    names_and_order(F::ALL, F::name, F::is_constant_time, gf64);
    let poly: &[(bool, &[&str])] = &[
        (X86, &["ifma", "avx2"]),
        (true, &["portable"]),
        (ARM, &["neon"]),
    ];
    names_and_order(P::ALL, P::name, P::is_constant_time, poly);
}

/// The checker itself: a backend named outside its line is caught.
#[test]
fn the_checker_finds_a_hand_written_arm() {
    let src = "registry! {\n    pub enum B;\n    portable = P;\n    keys = k;\n    X => x, \"x\", ct = true, detect = d,\n        \"doc\";\n    P => p, \"p\", ct = true, detect = a, \"doc\";\n}\nmod x;\nmod p;\n";
    let lines = table(src);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].4, "d");
    let c = code(src);
    assert_eq!(count_word(&c, "X"), 1);
    assert_eq!(count_word(&c, "P"), 2);
    let bad = format!("{src}fn f(b: B) -> bool {{ matches!(b, B::X) }}\n");
    assert_eq!(count_word(&code(&bad), "X"), 2);
}
