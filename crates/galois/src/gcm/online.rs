//! (being written: the modes issue)
