//! Gives the shared library (and only it) a versioned SONAME on Linux,
//! `libgalois.so.<major>`, as scripts/install-c.sh installs it:
//! libgalois.so -> libgalois.so.<major> -> libgalois.so.<version>.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let major = env!("CARGO_PKG_VERSION_MAJOR");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libgalois.so.{major}");
    }
}
