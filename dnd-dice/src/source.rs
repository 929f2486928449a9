//! Where the faces of dice come from.
//!
//! Any `rand` generator is a [`DieSource`]. Games should use [`game_rng`] (a ChaCha12 CSPRNG
//! seeded by the operating system: fair dice that nobody can predict); tests and replays use
//! [`seeded_rng`], and [`FixedFaces`] replays faces that were rolled elsewhere (a physical roll
//! typed in, or a log).

use rand::distr::uniform::{UniformInt, UniformSampler};
use rand::rngs::{ChaCha12Rng, SysRng};
use rand::{Rng, SeedableRng};

/// A source of die faces.
pub trait DieSource {
    /// Returns a face index in `1..=sides`, each equally likely, or `None` when the source has
    /// no face to give (a replay that ran out).
    fn roll_die(&mut self, sides: u32) -> Option<u32>;

    /// A face in `1..=sides` for the rules, which never roll a zero-sided die (one counts as
    /// a d1). The game's sources (any `rand` generator, [`FairDice`](super::FairDice)) always
    /// give a face; a [`FixedFaces`] replay that ran out gives 1.
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        self.roll_die(sides.max(1)).unwrap_or(1)
    }

    /// A number that orders creatures tied on initiative total and Dexterity. Not a die of
    /// the game, but drawn from the same source so a fair game can verify it too.
    fn tie_breaker(&mut self) -> u32 {
        self.die(u32::MAX)
    }
}

impl<R: Rng + ?Sized> DieSource for R {
    /// Draws exactly what `self.random_range(1..=sides)` draws (the same sampler), through the
    /// sampler's inlinable entry point: `random_range` itself asserts and is not inlined, which
    /// cost a die a fifth of its time. A zero-sided die gives `None`.
    #[inline]
    fn roll_die(&mut self, sides: u32) -> Option<u32> {
        UniformInt::<u32>::sample_single_inclusive(1, sides, self).ok()
    }

    /// The generator's next `u32`, as the rules drew it before dice had their own trait (so
    /// seeded games keep their order).
    #[inline]
    fn tie_breaker(&mut self) -> u32 {
        self.next_u32()
    }
}

/// The generator the engine uses for games: ChaCha12, a cryptographically secure generator
/// whose output is the same on every platform for a given seed.
pub type GameRng = ChaCha12Rng;

/// A [`GameRng`] seeded from the operating system's entropy: the default for real games.
///
/// Falls back to a generator seeded from the clock and the process id only if the operating
/// system refuses to provide entropy, which on supported platforms does not happen.
pub fn game_rng() -> GameRng {
    GameRng::try_from_rng(&mut SysRng).unwrap_or_else(|_| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        GameRng::seed_from_u64(nanos ^ u64::from(std::process::id()).rotate_left(32))
    })
}

/// A [`GameRng`] from a seed: the same seed gives the same rolls, for replays and tests.
pub fn seeded_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// Replays a fixed list of face indices (each in `1..=sides` of the die it is used for).
///
/// ```
/// use dnd_dice::{DiceExpr, FixedFaces};
/// let expr = DiceExpr::parse("4d6kh3").unwrap();
/// let roll = expr.roll(&mut FixedFaces::new([6, 5, 2, 4])).unwrap();
/// assert_eq!(roll.total(), 15);
/// assert_eq!(roll.to_string(), "4d6kh3 (6, 5, ~~2~~, 4) = 15");
/// ```
#[derive(Debug, Clone, Default)]
pub struct FixedFaces {
    faces: Vec<u32>,
    next: usize,
}

impl FixedFaces {
    /// A source that gives these faces in order.
    pub fn new(faces: impl IntoIterator<Item = u32>) -> Self {
        FixedFaces {
            faces: faces.into_iter().collect(),
            next: 0,
        }
    }

    /// How many faces have been used so far.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl DieSource for FixedFaces {
    fn roll_die(&mut self, sides: u32) -> Option<u32> {
        let face = *self.faces.get(self.next)?;
        if face == 0 || face > sides {
            return None;
        }
        self.next += 1;
        Some(face)
    }
}
