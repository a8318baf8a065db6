//! SVG plots of throughput against message size, for `galois bench --plot`
//! and `galois-bench gcm --plot`.

/// One line of a plot: a label and (size in bytes, GB/s) points.
///
/// ```
/// use galois_cli::plot::{svg, Series};
/// let s = Series { label: "clmul".into(), points: vec![(16, 0.5), (16384, 6.2)] };
/// assert!(svg("GHASH", &[s]).contains(">clmul</text>"));
/// ```
pub struct Series {
    /// The legend text.
    pub label: String,
    /// (message size in bytes, GB/s), in any order of size.
    pub points: Vec<(usize, f64)>,
}

/// Throughput against size on a log-2 x axis, one line per series.
///
/// ```
/// use galois_cli::plot::{svg, Series};
/// let a = Series { label: "a".into(), points: vec![(64, 1.0), (4096, 3.0)] };
/// let b = Series { label: "b".into(), points: vec![(64, 2.0), (4096, 4.0)] };
/// let out = svg("two lines", &[a, b]);
/// assert!(out.starts_with("<svg") && out.ends_with("</svg>\n"));
/// assert_eq!(out.matches("<polyline").count(), 2);
/// ```
pub fn svg(title: &str, series: &[Series]) -> String {
    let (w, h, m) = (900.0, 540.0, 60.0);
    let sizes: Vec<usize> = {
        let mut v: Vec<usize> = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let (lo, hi) = match (sizes.first(), sizes.last()) {
        (Some(&a), Some(&b)) if b > a => ((a as f64).log2(), (b as f64).log2()),
        (Some(&a), _) => ((a as f64).log2() - 1.0, (a as f64).log2() + 1.0),
        _ => (0.0, 1.0),
    };
    let maxg = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(1.0, f64::max)
        * 1.05;
    let x = |s: usize| m + (w - 2.0 * m) * ((s as f64).log2() - lo) / (hi - lo);
    let y = |g: f64| h - m - (h - 2.0 * m) * g / maxg;
    let colors = [
        "#d62728", "#ff7f0e", "#bcbd22", "#e377c2", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
        "#17becf", "#7f7f7f",
    ];
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    out += &format!(
        r#"<text x="{}" y="24" font-size="16" text-anchor="middle">{title}</text>"#,
        w / 2.0
    );
    out += &format!(
        r#"<line x1="{m}" y1="{}" x2="{}" y2="{}" stroke="black"/><line x1="{m}" y1="{m}" x2="{m}" y2="{}" stroke="black"/>"#,
        h - m,
        w - m,
        h - m,
        h - m
    );
    for s in &sizes {
        out += &format!(
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{s}</text>"#,
            x(*s),
            h - m + 16.0
        );
    }
    let step = (maxg / 6.0).ceil().max(1.0);
    let mut g = 0.0;
    while g <= maxg {
        out += &format!(
            r##"<text x="{}" y="{:.1}" text-anchor="end">{g}</text><line x1="{m}" y1="{:.1}" x2="{}" y2="{:.1}" stroke="#ddd"/>"##,
            m - 6.0,
            y(g) + 4.0,
            y(g),
            w - m,
            y(g)
        );
        g += step;
    }
    out += &format!(
        r#"<text x="{}" y="{}" text-anchor="middle">message size (bytes, log scale)</text>"#,
        w / 2.0,
        h - 20.0
    );
    out += &format!(
        r#"<text x="16" y="{}" transform="rotate(-90 16 {})" text-anchor="middle">GB/s</text>"#,
        h / 2.0,
        h / 2.0
    );
    for (i, s) in series.iter().enumerate() {
        let c = colors[i % colors.len()];
        let pts: Vec<String> = s
            .points
            .iter()
            .map(|&(sz, g)| format!("{:.1},{:.1}", x(sz), y(g)))
            .collect();
        out += &format!(
            r#"<polyline fill="none" stroke="{c}" stroke-width="2" points="{}"/>"#,
            pts.join(" ")
        );
        out += &format!(
            r#"<text x="{}" y="{}" fill="{c}">{}</text>"#,
            m + 10.0,
            m + 16.0 * (i as f64 + 1.0),
            s.label
        );
    }
    out + "</svg>\n"
}
