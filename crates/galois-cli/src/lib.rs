pub mod kat;
