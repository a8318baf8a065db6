//! The packet opener fed genuine, replayed, reordered, mutated, truncated
//! and arbitrary packets. It must never panic; it must accept exactly the
//! genuine packets an RFC 4303 window model accepts (a replay or a packet
//! older than the window refused with the model's error), release only
//! their true header and payload (what it opens, sealed again under its
//! sequence number, gives the same bytes), and never move its window for a
//! packet that does not verify.
//!
//! Input: key-size byte (mod 3), ICV byte (12 + mod 5), header-length
//! byte (mod 17), window (2 bytes: 1 + mod 200), salt (4), key (32), then
//! operations until the input ends (at most 64): an operation byte and its
//! arguments (see `match`).
#![no_main]

use galois_aead::limits::UsageLimits;
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start, SEQ_BYTES};
use galois_aead::Error;
use galois_fuzz::{check, check_eq, mismatch, Reader};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

/// The anti-replay window as RFC 4303 describes it, kept naively.
struct Model {
    window: u64,
    highest: u64,
    accepted: HashSet<u64>,
}

impl Model {
    fn expect(&self, seq: u64) -> Result<(), Error> {
        let lowest = (self.highest as u128 + 1)
            .saturating_sub(self.window as u128)
            .max(1) as u64;
        if seq == 0 || (seq <= self.highest && self.highest - seq >= self.window) {
            return Err(Error::OutsideWindow { seq, lowest });
        }
        if self.accepted.contains(&seq) {
            return Err(Error::Replay { seq });
        }
        Ok(())
    }

    fn accept(&mut self, seq: u64) {
        self.accepted.insert(seq);
        self.highest = self.highest.max(seq);
    }
}

struct Sealed {
    packet: Vec<u8>,
    seq: u64,
    header: Vec<u8>,
    payload: Vec<u8>,
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let key_len = [16, 24, 32][r.byte() as usize % 3];
    let icv = 12 + r.byte() as usize % 5;
    let header_len = r.byte() as usize % 17;
    let window = 1 + r.u16() as u32 % 200;
    let salt = r.fixed::<4>();
    let key = r.fixed::<32>();
    let key = &key[..key_len];
    let mut sealer = PacketSealer::with_config(
        key,
        salt,
        Role::Initiator,
        Start::NewKey,
        icv,
        UsageLimits::PACKETS,
    )
    .unwrap();
    let mut opener =
        PacketOpener::with_config(key, salt, Role::Responder, header_len, icv, window).unwrap();
    let mut model = Model {
        window: window as u64,
        highest: 0,
        accepted: HashSet::new(),
    };
    let mut sealed: Vec<Sealed> = Vec::new();

    // Delivers `p`. Whatever opens must be genuine: sealing its header and
    // payload under its sequence number gives exactly `p` back.
    let mut deliver = |p: &[u8], sealed: &[Sealed], opener: &mut PacketOpener| {
        let genuine = sealed.iter().find(|s| s.packet == p);
        let before = opener.highest();
        let pre = genuine.map(|g| opener.check(g.seq));
        let res = opener.open(p);
        if let Ok(o) = &res {
            let mut again = PacketSealer::with_config(
                key,
                salt,
                Role::Initiator,
                Start::NewKey,
                icv,
                UsageLimits::PACKETS,
            )
            .unwrap();
            again.resume_at(o.seq).unwrap();
            let q = again.seal(&o.header, &o.payload).unwrap();
            check!(q == p, "opened a packet that is not genuine: {o:?}");
        }
        match (genuine, res) {
            (Some(g), res) => {
                let want = model.expect(g.seq);
                check_eq!(pre.unwrap(), want, "check({})", g.seq);
                match (res, want) {
                    (Ok(o), Ok(())) => {
                        check_eq!(o.seq, g.seq, "sequence number");
                        check_eq!(o.header, g.header, "header");
                        check_eq!(o.payload, g.payload, "payload");
                        model.accept(g.seq);
                    }
                    (Err(e), Err(w)) => check_eq!(e, w, "refusal of genuine packet {}", g.seq),
                    (res, want) => mismatch!("packet {}: opener {res:?}, model {want:?}", g.seq),
                }
            }
            // Genuine, though not sealed here (a seed can carry one).
            (None, Ok(o)) => {
                check_eq!(model.expect(o.seq), Ok(()), "window for packet {}", o.seq);
                model.accept(o.seq);
            }
            (None, Err(_)) => {
                check_eq!(opener.highest(), before, "window moved for a bad packet");
            }
        }
        check_eq!(opener.highest(), model.highest, "highest");
    };

    for _ in 0..64 {
        if r.is_empty() {
            break;
        }
        let op = r.byte();
        let pick = r.byte() as usize;
        match op % 8 {
            0 | 1 => {
                // Seal a packet, sometimes after skipping ahead.
                if op & 0x10 != 0 {
                    let before = sealer.next_sequence();
                    let jump = if op & 0x20 != 0 {
                        r.u64()
                    } else {
                        r.u16() as u64
                    };
                    let to = before.unwrap_or(u64::MAX).saturating_add(jump);
                    let res = sealer.resume_at(to);
                    check_eq!(
                        res.is_ok(),
                        before.is_some(),
                        "resume_at({to}) from {before:?}"
                    );
                }
                let header = r.bytes(header_len).to_vec();
                if header.len() < header_len {
                    break;
                }
                let payload = r.field(300).to_vec();
                let seq = sealer.next_sequence();
                match (sealer.seal(&header, &payload), seq) {
                    (Ok(packet), Some(seq)) => {
                        check_eq!(
                            packet.len(),
                            header_len + SEQ_BYTES + payload.len() + icv,
                            "length"
                        );
                        sealed.push(Sealed {
                            packet,
                            seq,
                            header,
                            payload,
                        });
                    }
                    (Err(_), None) => {}
                    (res, seq) => mismatch!("sealer gave {res:?} with next sequence {seq:?}"),
                }
            }
            2 | 3 if !sealed.is_empty() => {
                let p = sealed[pick % sealed.len()].packet.clone();
                deliver(&p, &sealed, &mut opener);
            }
            4 if !sealed.is_empty() => {
                // One flipped bit.
                let mut p = sealed[pick % sealed.len()].packet.clone();
                let at = r.u16() as usize % p.len();
                p[at] ^= 1 << (r.byte() % 8);
                deliver(&p, &sealed, &mut opener);
            }
            5 if !sealed.is_empty() => {
                // Truncated, or extended.
                let mut p = sealed[pick % sealed.len()].packet.clone();
                let n = r.byte() as usize;
                if n % 2 == 0 {
                    p.truncate(p.len().saturating_sub(1 + n / 2));
                } else {
                    p.push(n as u8);
                }
                deliver(&p, &sealed, &mut opener);
            }
            6 if !sealed.is_empty() => {
                // Another packet's sequence number spliced in.
                let mut p = sealed[pick % sealed.len()].packet.clone();
                let other = sealed[r.byte() as usize % sealed.len()].seq;
                p[header_len..header_len + SEQ_BYTES].copy_from_slice(&other.to_be_bytes());
                deliver(&p, &sealed, &mut opener);
            }
            _ => {
                let p = r.field(400).to_vec();
                deliver(&p, &sealed, &mut opener);
            }
        }
    }
    check!(opener.highest() == model.highest, "final highest");
});
