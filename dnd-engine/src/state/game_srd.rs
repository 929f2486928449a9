//! The SRD a game plays on, carried by its [`GameState`](super::GameState).
//!
//! The rules read SRD data in places far from any tool: a change that drops a creature reads its
//! race's traits (Relentless Endurance), a save asks whether its source is a spell, a landing
//! asks whether a monster flies by nature, an Attack action counts Extra Attack from the class
//! table. Those reads take the state, so the state carries the SRD and they read
//! [`GameState::srd`](super::GameState::srd): a game on a 5e-database SRD or homebrew then plays
//! by its own numbers everywhere, with no hidden global.
//!
//! The SRD is rules data, not a part of the save: it is never serialized, a loaded state gets
//! the default (the bundled SRD with the `bundled-srd` feature, an empty one without), and the
//! game master gives the state its own SRD when it loads it. Two states compare equal whatever
//! SRD they carry, so a state loaded from a store equals the one the game computed.

use std::sync::Arc;

use crate::srd::Srd;

/// A shared handle on the [`Srd`] a game plays on; see the `state::game_srd` module docs.
#[derive(Clone)]
pub struct GameSrd(Arc<Srd>);

impl GameSrd {
    /// A handle on `srd`.
    pub fn new(srd: Arc<Srd>) -> GameSrd {
        GameSrd(srd)
    }

    /// The shared SRD, for a caller that keeps it beyond the state's life.
    pub fn shared(&self) -> &Arc<Srd> {
        &self.0
    }
}

impl Default for GameSrd {
    /// The bundled SRD with the `bundled-srd` feature; an empty one without (a game that turns
    /// the feature off gives every state its own with `GameState::set_srd`).
    fn default() -> GameSrd {
        #[cfg(feature = "bundled-srd")]
        {
            GameSrd(Srd::bundled_shared())
        }
        #[cfg(not(feature = "bundled-srd"))]
        {
            static EMPTY: std::sync::OnceLock<Arc<Srd>> = std::sync::OnceLock::new();
            GameSrd(Arc::clone(EMPTY.get_or_init(|| Arc::new(Srd::default()))))
        }
    }
}

impl std::ops::Deref for GameSrd {
    type Target = Srd;

    fn deref(&self) -> &Srd {
        &self.0
    }
}

impl From<Arc<Srd>> for GameSrd {
    fn from(srd: Arc<Srd>) -> GameSrd {
        GameSrd(srd)
    }
}

impl PartialEq for GameSrd {
    /// Always equal: the SRD is the rules a state is played by, not part of what it is (see
    /// the `state::game_srd` module docs).
    fn eq(&self, _: &GameSrd) -> bool {
        true
    }
}

impl Eq for GameSrd {}

impl std::fmt::Debug for GameSrd {
    /// The record counts only: a state's `Debug` print would otherwise hold the whole SRD.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GameSrd({} monsters, {} spells)",
            self.0.monsters.len(),
            self.0.spells.len()
        )
    }
}
