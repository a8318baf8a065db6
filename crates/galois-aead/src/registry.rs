//! One backend registry for every family (GHASH, GF(2^64), Poly1305).
//!
//! A family writes one table: each line names a backend, the file (module)
//! that implements it, its CLI name, whether it runs in constant time, and
//! the probe of [`crate::detect`] that proves this CPU can run it:
//!
//! ```text
//! pub enum Gf64Backend; path = "galois_aead::gf64::Gf64Backend", keys = gf64_keys;
//! portable = Ctmul;
//! Clmul => clmul, "gf64-clmul", ct = true, detect = crate::detect::has_pclmul, "doc", #[cfg(target_arch = "x86_64")];
//! ```
//!
//! (one line per backend, its `#[cfg]`, if any, last: the lines differ
//! only in their values.)
//!
//! [`registry!`] turns the table into the public enum (`ALL`, `name`,
//! `from_name`, `is_constant_time`, `is_available`, `available`, `auto`,
//! `Display`; `path` is the enum's public path, for the doc examples) and hands the `(variant => module)` list to the family's own
//! key macro, which builds the key enum that dispatches to each file.
//!
//! Conventions, the same for every family:
//! - the table is in order of preference, fastest first; [`auto`] is the
//!   first line that is constant time and available, so a `*_vartime`
//!   backend is never chosen automatically;
//! - `is_available` is the table's probe and nothing else: a backend has to
//!   be listed, with its probe, to exist at all, and key constructors refuse
//!   a backend whose probe says no;
//! - per-architecture lists come from the `#[cfg]` that ends the line: a backend not
//!   compiled for the target is not in `ALL` and its name does not parse.
//!
//! [`auto`]: crate::gf64::Gf64Backend::auto

/// Generates a family's backend enum from its table; see the module doc.
/// `portable` names the line `auto` falls back to (it must be constant time
/// and probed by `detect::always`; the tests of each family check it).
macro_rules! registry {
    (
        $(#[$emeta:meta])*
        pub enum $Enum:ident; path = $path:literal, keys = $keys:ident;
        portable = $portable:ident;
        $(
            $variant:ident => $module:ident, $name:literal, ct = $ct:literal,
                detect = $detect:path, $doc:literal $(, #[$cfg:meta])*;
        )*
    ) => {
        $(#[$emeta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $Enum {
            $( #[doc = $doc] $(#[$cfg])* $variant, )*
        }

        impl $Enum {
            /// Every backend compiled for this target, fastest first (the
            /// order automatic selection tries them in).
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("assert!(", stringify!($Enum), "::ALL.contains(&", stringify!($Enum), "::auto()));")]
            /// ```
            pub const ALL: &'static [$Enum] = &[$( $(#[$cfg])* $Enum::$variant, )*];

            /// The backend's name, as the CLI spells it.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("for &b in ", stringify!($Enum), "::ALL { assert_eq!(b.to_string(), b.name()); }")]
            /// ```
            pub fn name(self) -> &'static str {
                match self { $( $(#[$cfg])* $Enum::$variant => $name, )* }
            }

            /// Parses a name given by `name`; names of backends not compiled
            /// for this target are unknown.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("for &b in ", stringify!($Enum), "::ALL { assert_eq!(", stringify!($Enum), "::from_name(b.name())?, b); }")]
            #[doc = concat!("assert!(", stringify!($Enum), "::from_name(\"no-such-backend\").is_err());")]
            #[doc = concat!("# Ok::<(), galois_aead::Error>(())")]
            /// ```
            pub fn from_name(name: &str) -> $crate::error::Result<Self> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|b| b.name() == name)
                    .ok_or($crate::error::Error::UnknownBackend)
            }

            /// Whether the backend runs in time independent of secrets.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("assert!(", stringify!($Enum), "::auto().is_constant_time());")]
            /// ```
            pub fn is_constant_time(self) -> bool {
                match self { $( $(#[$cfg])* $Enum::$variant => $ct, )* }
            }

            /// Whether this CPU can run the backend: its table line's probe.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("assert!(", stringify!($Enum), "::auto().is_available());")]
            /// ```
            pub fn is_available(self) -> bool {
                match self { $( $(#[$cfg])* $Enum::$variant => $detect(), )* }
            }

            /// The backends this CPU can run, fastest first.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("assert!(", stringify!($Enum), "::available().contains(&", stringify!($Enum), "::auto()));")]
            /// ```
            pub fn available() -> Vec<$Enum> {
                Self::ALL.iter().copied().filter(|b| b.is_available()).collect()
            }

            /// The backend a new key gets: the first constant-time one this
            /// CPU can run.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("let b = ", stringify!($Enum), "::auto();")]
            #[doc = concat!("assert!(b.is_constant_time() && b.is_available());")]
            /// ```
            pub fn auto() -> $Enum {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|b| b.is_constant_time() && b.is_available())
                    .unwrap_or($Enum::$portable)
            }

            /// The error for a backend this CPU cannot run.
            #[allow(dead_code)]
            pub(crate) fn unavailable(self) -> $crate::error::Error {
                $crate::error::Error::BackendUnavailable { backend: self.name() }
            }
        }

        impl core::fmt::Display for $Enum {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        $keys! { $( $(#[$cfg])* $variant => $module; )* }
    };
}

pub(crate) use registry;

/// Generates a family's key enum from the `(variant => module)` list that
/// [`registry!`] hands to the family's key macro (`$list`, passed on as one
/// braced group): one variant per table line holding `$pre module::$item
/// $post` (say `[] Key []`), a constructor `new` that refuses a backend
/// whose probe says no and otherwise builds the variant from the line's
/// module (`|m| ...`, with `m` the module), `backend`, and methods on
/// `&self` whose body runs once per variant (`|k, m| ...`, with `k` the
/// variant's value and `m` its module). One dispatch, written once for every
/// family.
macro_rules! key_enum {
    (
        $list:tt
        $(#[$meta:meta])*
        $vis:vis enum $Key:ident $(<$lt:lifetime>)? for $Enum:ident = $pre:tt $item:ident $post:tt;
        $(#[$nmeta:meta])*
        fn new($($arg:ident: $aty:ty),*) -> Result<Self> = $b:ident => |$nm:ident| $ctor:expr;
        $(
            $(#[$fmeta:meta])*
            fn $f:ident $(<$($g:ident: $gb:path),*>)? ($($a:ident: $at:ty),*) $(-> $ret:ty)?
                = |$k:pat_param, $m:ident| $body:expr;
        )*
    ) => {
        $crate::registry::key_enum!(@enum $list [$(#[$meta])* $vis $Key $(<$lt>)?] $pre $item $post);

        impl $(<$lt>)? $Key $(<$lt>)? {
            $(#[$nmeta])*
            $vis fn new($($arg: $aty),*) -> $crate::error::Result<Self> {
                if !$b.is_available() {
                    return Err($b.unavailable());
                }
                $crate::registry::key_enum!(@new $list $Key $Enum, $b, |$nm| $ctor)
            }

            /// The backend (table line) this key runs.
            #[allow(dead_code)]
            $vis fn backend(&self) -> $Enum {
                $crate::registry::key_enum!(@backend $list $Key $Enum, self)
            }

            $(
                $(#[$fmeta])*
                $vis fn $f $(<$($g: $gb),*>)? (&self, $($a: $at),*) $(-> $ret)? {
                    $crate::registry::key_enum!(@match $list $Key, self, |$k, $m| $body)
                }
            )*
        }
    };
    (@enum { $( $(#[$cfg:meta])* $variant:ident => $module:ident; )* }
        [$(#[$meta:meta])* $vis:vis $Key:ident $(<$lt:lifetime>)?] $pre:tt $item:ident $post:tt) => {
        $(#[$meta])*
        $vis enum $Key $(<$lt>)? {
            $( $(#[$cfg])* $variant($crate::registry::key_enum!(@ty $pre $module $item $post)), )*
        }
    };
    (@ty [$($pre:tt)*] $module:ident $item:ident [$($post:tt)*]) => {
        $($pre)* $module::$item $($post)*
    };
    (@new { $( $(#[$cfg:meta])* $variant:ident => $module:ident; )* } $Key:ident $Enum:ident, $b:ident, |$m:ident| $ctor:expr) => {
        match $b {
            $( $(#[$cfg])* $Enum::$variant => {
                #[allow(unused_imports)]
                use $module as $m;
                $ctor.map($Key::$variant).ok_or($b.unavailable())
            } )*
        }
    };
    (@backend { $( $(#[$cfg:meta])* $variant:ident => $module:ident; )* } $Key:ident $Enum:ident, $on:expr) => {
        match $on { $( $(#[$cfg])* $Key::$variant(_) => $Enum::$variant, )* }
    };
    (@match { $( $(#[$cfg:meta])* $variant:ident => $module:ident; )* } $Key:ident, $on:expr, |$k:pat_param, $m:ident| $body:expr) => {
        match $on {
            $( $(#[$cfg])* $Key::$variant($k) => {
                #[allow(unused_imports)]
                use $module as $m;
                $body
            } )*
        }
    };
}

pub(crate) use key_enum;

/// The key enum of a multiplication family (GHASH, GF(2^64)): each
/// variant the line's `Key`, H (of type `$T`) prepared for that backend and
/// wiped on drop, with `new(h, backend)`, `mul_h(x)` and
/// `update_blocks(y, blocks)` (`blocks` whole `$block`-byte blocks), then
/// the family's own methods (`$more`, as [`key_enum!`] takes them).
macro_rules! mul_key_enum {
    ($list:tt $Key:ident for $Enum:ident, $T:ty, $block:literal; $($more:tt)*) => {
        $crate::registry::key_enum! {
            $list
            /// H prepared for one backend, chosen once at key setup.
            #[derive(Zeroize)]
            pub(crate) enum $Key for $Enum = [] Key [];
            /// Keys `backend` with H; refused unless its table line's probe
            /// says this CPU can run it.
            fn new(h: $T, backend: $Enum) -> Result<Self> = backend => |m| m::Key::new(h);
            /// x * H.
            #[inline]
            fn mul_h(x: $T) -> $T = |k, m| k.mul_h(x);
            /// Absorbs whole blocks: y <- (y xor B_i) * H for each.
            #[inline]
            fn update_blocks(y: $T, blocks: &[u8]) -> $T = |k, m| {
                debug_assert_eq!(blocks.len() % $block, 0);
                k.update_blocks(y, blocks)
            };
            $($more)*
        }
    };
}

pub(crate) use mul_key_enum;

/// The `Key` of a backend that keeps its multiplier h (of type `$T`) alone
/// and multiplies by it with the module's `mul(x, h)` (no table), for the
/// family trait `$Trait`; `$extra` are the trait's other items.
macro_rules! plain_key {
    ($T:ty, $Trait:path $(; $($extra:tt)*)?) => {
        #[derive(zeroize::Zeroize)]
        pub(crate) struct Key {
            h: $T,
        }

        impl $Trait for Key {
            $($($extra)*)?

            fn new(h: $T) -> Option<Self> {
                Some(Key { h })
            }

            fn mul_h(&self, x: $T) -> $T {
                mul(x, self.h)
            }
        }
    };
}

pub(crate) use plain_key;

/// `Debug` for a keyed type that shows only what its `$method`s return
/// (the backend, the key length), never key material.
macro_rules! debug_public {
    ($Type:ident: $($method:ident),+) => {
        impl core::fmt::Debug for $Type {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($Type))
                    $(.field(stringify!($method), &self.$method()))+
                    .finish_non_exhaustive()
            }
        }
    };
}

pub(crate) use debug_public;

/// One step of Marsaglia's xorshift (13, 7, 17) on `s`, for the unit tests'
/// inputs (u64 or u128 state); returns the new state.
#[cfg(test)]
pub(crate) fn xorshift<T>(s: &mut T) -> T
where
    T: Copy
        + core::ops::BitXor<Output = T>
        + core::ops::Shl<u32, Output = T>
        + core::ops::Shr<u32, Output = T>,
{
    *s = *s ^ (*s << 13);
    *s = *s ^ (*s >> 7);
    *s = *s ^ (*s << 17);
    *s
}

#[cfg(test)]
mod tests {
    //! A made-up family: the registry, not a real backend, is under test.
    use crate::error::{Error, Result};

    fn never() -> bool {
        false
    }

    /// Each module's `Key::new` always succeeds: only the table's probe can
    /// make a backend unavailable.
    mod fast_vartime {
        pub(crate) struct Key;
        impl Key {
            pub(crate) fn new() -> Option<Self> {
                Some(Key)
            }
        }
    }
    use fast_vartime as fast_ct;
    use fast_vartime as missing_cpu;
    use fast_vartime as portable;

    macro_rules! mock_keys {
        ($( $(#[$cfg:meta])* $variant:ident => $module:ident; )*) => {
            #[allow(dead_code)]
            enum MockKey { $( $variant($module::Key), )* }
            impl MockKey {
                fn new(b: Mock) -> Result<Self> {
                    if !b.is_available() {
                        return Err(b.unavailable());
                    }
                    match b { $( Mock::$variant => $module::Key::new().map(MockKey::$variant).ok_or(b.unavailable()), )* }
                }
            }
        };
    }

    registry! {
        /// A family for the tests.
        pub enum Mock; path = "crate::registry::tests::Mock", keys = mock_keys;
        portable = Portable;
        FastVartime => fast_vartime, "fast_vartime", ct = false, detect = crate::detect::always, "A made-up line.";
        MissingCpu => missing_cpu, "missing_cpu", ct = true, detect = never, "A made-up line.";
        FastCt => fast_ct, "fast_ct", ct = true, detect = crate::detect::always, "A made-up line.";
        Portable => portable, "portable", ct = true, detect = crate::detect::always, "A made-up line.";
    }

    #[test]
    fn only_listed_and_probed_backends_are_available() {
        assert_eq!(
            Mock::available(),
            [Mock::FastVartime, Mock::FastCt, Mock::Portable]
        );
        assert!(!Mock::MissingCpu.is_available());
        // The module's constructor would succeed; the table's probe refuses.
        assert!(matches!(
            MockKey::new(Mock::MissingCpu),
            Err(Error::BackendUnavailable {
                backend: "missing_cpu"
            })
        ));
        assert!(MockKey::new(Mock::FastCt).is_ok());
        // A name with no table line does not exist.
        assert_eq!(Mock::from_name("neon"), Err(Error::UnknownBackend));
        assert_eq!(Mock::from_name("fast_ct"), Ok(Mock::FastCt));
        assert_eq!(Mock::FastCt.to_string(), "fast_ct");
    }

    #[test]
    fn auto_is_the_first_constant_time_available_line() {
        // FastVartime is first and available, MissingCpu is constant time
        // but unavailable: neither is chosen.
        assert_eq!(Mock::auto(), Mock::FastCt);
        assert_eq!(Mock::ALL.len(), 4);
    }
}
