//! Message authentication codes: GMAC (and Poly1305-AES).

pub mod gmac;
pub mod incremental;
