pub mod kat;
pub mod plot;
