//! Provably fair dice: dice a player can recompute from a revealed seed.
//!
//! # The scheme (the one place it is written down)
//!
//! 1. **Commit.** A campaign that opts in gets a *server seed*: 32 bytes from the operating
//!    system's CSPRNG. Its SHA-256, in lower-case hex, is the *commitment*; it is written to
//!    the campaign's history (in `dnd-engine`, the change `Change::FairCommitted`)
//!    in a record of its own, before any turn rolls a die with it. The seed itself stays secret
//!    (no `Debug` print, view, API response or log shows it) until it is revealed.
//! 2. **Client seed.** The player may choose a client seed: 1 to 64 characters from
//!    `A-Z a-z 0-9 _ -`. Choosing one reveals the current server seed and commits a new one
//!    for the new client seed, so one seed always goes with one client seed.
//! 3. **Nonce.** Every tool call that rolls dice in turn `t` (the turn's number in the history,
//!    undone turns counted) is the `k`-th one of its turn that rolled (from 0); its *nonce* is
//!    `t × 1_000_000 + k`. Turn numbers are never reused (undo keeps them), so a nonce is never
//!    drawn twice for two different rolls under one seed: undoing a turn and playing it again
//!    draws fresh nonces, not the dice the player already saw. (A turn that fails before its
//!    commit is not in the history; played again, it rolls the same dice, as ordinary games do.)
//! 4. **Dice.** The dice of a nonce, in the order the rules roll them, come from the blocks
//!    `HMAC-SHA-256(key = server seed bytes, message = "{client_seed}:{nonce}:{round}")` for
//!    round = 0, 1, 2, ...: each block is read 4 bytes at a time as a big-endian `u32` `v`; a
//!    die with `s` sides rejects `v >= s × floor(2³² / s)` (so every face is equally likely)
//!    and otherwise shows `v % s + 1`. A rejected value is skipped, never reused.
//! 5. **Record.** Every roll record of that call carries the nonce and the dice drawn for it
//!    (`sides`, `face`, in order) as [`FairDraw`]; a call that rolled but was refused burns its
//!    nonce (a gap in the numbers, with no dice anyone saw).
//! 6. **Reveal.** At the end of a play session or on request the seed is revealed
//!    (in `dnd-engine`, the change `Change::FairRevealed`) and, unless the player
//!    turns fair dice off, a new one is committed. Nonces carry on (they count turns). The
//!    revealed seeds stay listed with their commitment, client seed and the turns they covered,
//!    so a whole campaign verifies across reveals (`dnd-engine`'s module `fair`).
//!
//! The mapping does not go through `rand`'s samplers on purpose: anyone can rewrite it in a
//! few lines with their language's HMAC (the README has a Python one).

use hmac::{Hmac, Mac};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::source::DieSource;
use super::{GameRng, game_rng};

/// Nonces per turn: the nonce of the `k`-th rolling call of turn `t` is `t × NONCES_PER_TURN + k`.
pub const NONCES_PER_TURN: u64 = 1_000_000;

/// The nonce of the `call`-th rolling tool call (from 0) of history turn `turn`.
pub fn nonce(turn: u64, call: u64) -> u64 {
    turn.saturating_mul(NONCES_PER_TURN).saturating_add(call)
}

/// The turn a nonce belongs to.
pub fn nonce_turn(nonce: u64) -> u64 {
    nonce / NONCES_PER_TURN
}

/// A server seed: 32 secret bytes. Its `Debug` print leaves the bytes out; it is serialized (as
/// hex) only into the store's own state and changes, which no view shows.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; 32]);

impl std::fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerSeed(<secret>)")
    }
}

impl ServerSeed {
    /// 32 bytes from the operating system's CSPRNG (through `rand`'s `SysRng`).
    pub fn generate() -> ServerSeed {
        use rand::TryRng;
        let mut bytes = [0u8; 32];
        if rand::rngs::SysRng.try_fill_bytes(&mut bytes).is_err() {
            // The OS refused entropy (not seen on supported platforms): the game generator,
            // itself seeded from the OS or the clock.
            rand::Rng::fill_bytes(&mut game_rng(), &mut bytes);
        }
        ServerSeed(bytes)
    }

    /// A seed from a generator: for tests and seeded demos only (a real game uses
    /// [`generate`](Self::generate)).
    pub fn from_rng(rng: &mut GameRng) -> ServerSeed {
        let mut bytes = [0u8; 32];
        rand::Rng::fill_bytes(rng, &mut bytes);
        ServerSeed(bytes)
    }

    /// The seed from its 64 hex digits (as revealed).
    pub fn from_hex(text: &str) -> Result<ServerSeed, String> {
        let bytes = from_hex(text.trim())
            .filter(|b| b.len() == 32)
            .ok_or_else(|| format!("a server seed is 64 hex digits; got {:?}", short(text)))?;
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&bytes);
        Ok(ServerSeed(seed))
    }

    /// The seed as 64 lower-case hex digits: only for revealing it.
    pub fn reveal(&self) -> String {
        to_hex(&self.0)
    }

    /// The commitment: SHA-256 of the 32 seed bytes, in lower-case hex.
    pub fn commitment(&self) -> String {
        to_hex(&Sha256::digest(self.0))
    }

    fn mac(&self) -> Hmac<Sha256> {
        // An HMAC key may have any length: this cannot fail.
        <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("HMAC takes a key of any length")
    }
}

#[cfg(feature = "serde")]
impl Serialize for ServerSeed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.reveal())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for ServerSeed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        ServerSeed::from_hex(&text).map_err(serde::de::Error::custom)
    }
}

/// Checks a client seed: 1 to 64 characters from `A-Z a-z 0-9 _ -` (no `:`, which separates
/// the HMAC message's parts).
pub fn check_client_seed(seed: &str) -> Result<(), String> {
    let ok = !seed.is_empty()
        && seed.len() <= 64
        && seed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "a client seed is 1 to 64 characters from A-Z, a-z, 0-9, _ and -; got {:?}",
            short(seed)
        ))
    }
}

/// A client seed for a player who gave none: 16 random hex digits.
pub fn random_client_seed() -> String {
    let mut bytes = [0u8; 8];
    rand::Rng::fill_bytes(&mut game_rng(), &mut bytes);
    to_hex(&bytes)
}

/// One die drawn from the fair stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct FairDie {
    /// Its number of sides.
    pub sides: u32,
    /// The face it showed, in `1..=sides`.
    pub face: u32,
}

/// The fair dice of one roll record: its nonce and every die drawn under it, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct FairDraw {
    /// The nonce (see the [module docs](self)).
    pub nonce: u64,
    /// The dice, in the order they were drawn.
    pub dice: Vec<FairDie>,
}

/// The faces a nonce gives for dice of these sides, in order: the scheme's step 4, for
/// verifying. A zero-sided die (never drawn by the game) shows 0.
pub fn faces(seed: &ServerSeed, client_seed: &str, nonce: u64, sides: &[u32]) -> Vec<u32> {
    let mut stream = Stream::new(seed.mac(), client_seed, nonce);
    sides.iter().map(|&s| stream.die(s).unwrap_or(0)).collect()
}

/// The byte stream of one nonce.
struct Stream {
    mac: Hmac<Sha256>,
    prefix: String,
    round: u64,
    block: [u8; 32],
    at: usize,
}

impl Stream {
    fn new(mac: Hmac<Sha256>, client_seed: &str, nonce: u64) -> Stream {
        Stream {
            mac,
            prefix: format!("{client_seed}:{nonce}:"),
            round: 0,
            block: [0; 32],
            at: 32,
        }
    }

    fn next_u32(&mut self) -> u32 {
        if self.at == 32 {
            let mut mac = self.mac.clone();
            mac.update(self.prefix.as_bytes());
            mac.update(self.round.to_string().as_bytes());
            self.block.copy_from_slice(&mac.finalize().into_bytes());
            self.round += 1;
            self.at = 0;
        }
        let bytes = [
            self.block[self.at],
            self.block[self.at + 1],
            self.block[self.at + 2],
            self.block[self.at + 3],
        ];
        self.at += 4;
        u32::from_be_bytes(bytes)
    }

    fn die(&mut self, sides: u32) -> Option<u32> {
        if sides == 0 {
            return None;
        }
        // The largest multiple of `sides` not above 2^32: values at or above it are rejected.
        let limit = (1u64 << 32) / u64::from(sides) * u64::from(sides);
        loop {
            let v = self.next_u32();
            if u64::from(v) < limit {
                return Some(v % sides + 1);
            }
        }
    }
}

/// The dice of one turn of a fair campaign: draws each tool call's dice from its own nonce
/// and keeps them until the call's records take them ([`take_call`](Self::take_call)).
pub struct FairDice {
    mac: Hmac<Sha256>,
    client_seed: String,
    turn: u64,
    call: u64,
    stream: Option<Stream>,
    drawn: Vec<FairDie>,
}

impl std::fmt::Debug for FairDice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FairDice")
            .field("client_seed", &self.client_seed)
            .field("turn", &self.turn)
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

impl FairDice {
    /// The dice of history turn `turn` under this seed and client seed.
    pub fn new(seed: &ServerSeed, client_seed: &str, turn: u64) -> FairDice {
        FairDice {
            mac: seed.mac(),
            client_seed: client_seed.to_owned(),
            turn,
            call: 0,
            stream: None,
            drawn: Vec::new(),
        }
    }

    /// The dice drawn since the last call, with their nonce; the next die starts a new nonce.
    /// `None` when no die was drawn.
    pub fn take_call(&mut self) -> Option<FairDraw> {
        self.stream = None;
        if self.drawn.is_empty() {
            return None;
        }
        let draw = FairDraw {
            nonce: nonce(self.turn, self.call),
            dice: std::mem::take(&mut self.drawn),
        };
        self.call += 1;
        Some(draw)
    }
}

impl DieSource for FairDice {
    fn roll_die(&mut self, sides: u32) -> Option<u32> {
        if sides == 0 {
            return None;
        }
        let (turn, call) = (self.turn, self.call);
        let stream = self.stream.get_or_insert_with(|| {
            Stream::new(self.mac.clone(), &self.client_seed, nonce(turn, call))
        });
        let face = stream.die(sides)?;
        self.drawn.push(FairDie { sides, face });
        Some(face)
    }
}

/// The dice of a turn: the ordinary game generator, or the fair stream of a campaign that
/// opted in. The rules and tools take any [`DieSource`]; this is the one the turn passes.
#[derive(Debug)]
// The ordinary generator stays inline: it draws every die of every ordinary game, and a box
// would add a pointer chase to each; a turn holds one of these.
#[allow(clippy::large_enum_variant)]
pub enum TurnDice {
    /// The ordinary seeded ChaCha12 generator (the default).
    Game(GameRng),
    /// Provably fair dice.
    Fair(Box<FairDice>),
}

impl TurnDice {
    /// The dice drawn since the last call, for the records of the tool call that drew them
    /// (always `None` for ordinary dice).
    pub fn take_call(&mut self) -> Option<FairDraw> {
        match self {
            TurnDice::Game(_) => None,
            TurnDice::Fair(fair) => fair.take_call(),
        }
    }
}

impl DieSource for TurnDice {
    #[inline]
    fn roll_die(&mut self, sides: u32) -> Option<u32> {
        match self {
            TurnDice::Game(rng) => rng.roll_die(sides),
            TurnDice::Fair(fair) => fair.roll_die(sides),
        }
    }

    fn tie_breaker(&mut self) -> u32 {
        match self {
            TurnDice::Game(rng) => rng.tie_breaker(),
            TurnDice::Fair(fair) => fair.tie_breaker(),
        }
    }
}

fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

fn short(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests;
