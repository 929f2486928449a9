//! The player's words → an [`Intent`], with keywords, and the fuzzy name matching the planner
//! uses to resolve "the wolf" to a monster or "the iron gate" to an exit.
//!
//! The parser knows nothing of the game: it only finds the first verb it recognises and keeps
//! the rest of the sentence as a phrase. Resolving the phrase against what is actually there is
//! the planner's job, so a phrase that names nothing is a polite refusal, never a panic.

use super::words::{is_direction, is_filler, words};

/// Longest input the parser reads, in characters; the rest is ignored.
const MAX_CHARS: usize = 4_000;

/// What the player wants to do, as the offline game master understands it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// Fight: "attack the wolf", "I hit it".
    Attack {
        /// Who, as the player said it ("wolf"); `None` for the first hostile monster.
        target: Option<String>,
    },
    /// "cast fire bolt at the wolf".
    Cast {
        /// The spell, as said ("fire bolt").
        spell: String,
        /// Who, as said; `None` to let the planner pick.
        target: Option<String>,
    },
    /// "search the room", "look for traps", "investigate the pillar".
    Search {
        /// `true` for an Investigation check ("investigate"), else Perception.
        investigate: bool,
    },
    /// "look around", "examine the pillar".
    Look {
        /// What to look at; `None` for the room.
        subject: Option<String>,
    },
    /// "go east", "climb down", "head to the hall", "go back".
    Move {
        /// Where, as said ("east", "great hall"); `None` when not said.
        destination: Option<String>,
        /// "back": the way the party came.
        back: bool,
    },
    /// "open the iron gate", "unlock the door with the key".
    Open {
        /// Which way, as said.
        exit: Option<String>,
    },
    /// "take the lantern", "pick up everything", "grab the gold".
    Take {
        /// What, as said; `None` (or "everything") for all visible loot.
        item: Option<String>,
    },
    /// "drink a potion", "use the key".
    Use {
        /// What, as said; `None` with `drink` means a potion.
        item: Option<String>,
        /// Whether the verb was "drink" (or "quaff").
        drink: bool,
    },
    /// "talk to the monk", "I answer: a candle", "ask the monk about the door".
    Talk {
        /// The whole utterance (an NPC is named somewhere in it, and maybe an answer).
        words: String,
    },
    /// "give the lantern to the miller": through `talk_to` with the item given.
    Give {
        /// The whole utterance: an item and an NPC are named in it.
        words: String,
    },
    /// "persuade the guard to open the gate", "threaten the smuggler", "sense the monk's
    /// motives": a `social_check` with this skill.
    Social {
        /// The skill the words call for.
        skill: Sway,
        /// The whole utterance: an NPC is named in it, and maybe what is asked ("to ...").
        words: String,
    },
    /// "disarm the tripwire": `disarm_trap` on a trap the party has noticed.
    Disarm {
        /// Which trap, as said; `None` for the first one known.
        target: Option<String>,
    },
    /// "rest", "take a short rest", "long rest".
    Rest {
        /// A long rest.
        long: bool,
    },
    /// "inventory", "what do I carry".
    Inventory,
    /// "I level up", "level up": take the next level, if earned.
    LevelUp,
    /// "flee", "run away".
    Flee,
    /// "I keep Shield ready as my reaction when hit": a standing reaction, cast by the engine
    /// during the monsters' turns.
    React {
        /// The spell, as said ("shield").
        spell: String,
        /// When: on a spell being cast if the words say so ("when a spell is cast"), on being
        /// damaged ("when damaged"), else when hit.
        when: crate::state::ReactionTrigger,
    },
    /// Anything else: narrated gently, with suggestions.
    Unknown,
}

/// The skill of a social check, as the words call for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sway {
    /// Ask, plead, reason, convince.
    Persuasion,
    /// Lie, bluff.
    Deception,
    /// Threaten.
    Intimidation,
    /// Read someone: what it wants, whether it lied.
    Insight,
}

impl Sway {
    /// The name `social_check` takes ("persuasion").
    pub fn name(self) -> &'static str {
        match self {
            Sway::Persuasion => "persuasion",
            Sway::Deception => "deception",
            Sway::Intimidation => "intimidation",
            Sway::Insight => "insight",
        }
    }
}

/// Reads the player's words. Never panics, on any input.
pub fn parse_intent(text: &str) -> Intent {
    let text: String = text.chars().take(MAX_CHARS).collect();
    let tokens = words(&text);
    let has = |w: &str| tokens.iter().any(|t| t == w);
    let has_seq = |a: &str, b: &str| tokens.windows(2).any(|p| p[0] == a && p[1] == b);
    let social = |skill: Sway| Intent::Social {
        skill,
        words: text.trim().to_owned(),
    };

    // Phrases that would otherwise be caught by an earlier, more general verb.
    if has_seq("short", "rest") || has_seq("a", "rest") || has_seq("catch", "breath") {
        return Intent::Rest { long: false };
    }
    if has_seq("long", "rest") {
        return Intent::Rest { long: true };
    }
    if has_seq("level", "up") || has("levelup") {
        return Intent::LevelUp;
    }
    if has("inventory") || (has_seq("what", "do") && (has("carry") || has("have"))) {
        return Intent::Inventory;
    }
    if let Some(at) = tokens.iter().position(|t| t == "reaction") {
        let after = &tokens[at + 1..];
        let when = if after
            .iter()
            .any(|t| t == "spell" || t == "cast" || t == "casts")
        {
            crate::state::ReactionTrigger::SpellCast
        } else if after.iter().any(|t| t == "damaged" || t == "hurt") {
            crate::state::ReactionTrigger::Damaged
        } else {
            crate::state::ReactionTrigger::Hit
        };
        const NOT_THE_SPELL: &[&str] = &[
            "keep", "ready", "prepare", "hold", "as", "my", "will", "cast", "to",
        ];
        let spell: Vec<String> = tokens[..at]
            .iter()
            .filter(|t| !NOT_THE_SPELL.contains(&t.as_str()))
            .cloned()
            .collect();
        if let Some(spell) = phrase(&spell) {
            return Intent::React { spell, when };
        }
    }

    for (i, token) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).map(String::as_str);
        let rest = || phrase(&tokens[i + 1..]);
        let rest_after_next = || phrase(tokens.get(i + 2..).unwrap_or_default());
        let intent = match (token.as_str(), next) {
            ("pick", Some("up")) => Intent::Take {
                item: everything_or(rest_after_next()),
            },
            ("look" | "search" | "check", Some("for")) => Intent::Search { investigate: false },
            ("look", Some("around")) => Intent::Look { subject: None },
            ("run" | "get", Some("away")) => Intent::Flee,
            ("go" | "head" | "walk" | "turn", Some("back")) => Intent::Move {
                destination: None,
                back: true,
            },
            (
                "attack" | "hit" | "strike" | "fight" | "swing" | "stab" | "slash" | "shoot"
                | "kill" | "charge" | "smite" | "break" | "smash" | "shatter",
                _,
            ) => Intent::Attack { target: rest() },
            ("cast", _) => cast(&tokens[i + 1..]),
            ("search" | "listen" | "scour", _) => Intent::Search { investigate: false },
            ("investigate", _) => Intent::Search { investigate: true },
            ("look" | "examine" | "inspect" | "study" | "observe" | "check" | "read", _) => {
                Intent::Look { subject: rest() }
            }
            (
                "move" | "go" | "walk" | "climb" | "head" | "travel" | "enter" | "cross"
                | "proceed" | "continue",
                _,
            ) => Intent::Move {
                destination: rest(),
                back: false,
            },
            ("descend", _) => Intent::Move {
                destination: Some("down".into()),
                back: false,
            },
            ("ascend", _) => Intent::Move {
                destination: Some("up".into()),
                back: false,
            },
            ("open" | "unlock", _) => Intent::Open { exit: rest() },
            ("take" | "grab" | "collect" | "loot" | "gather" | "pocket", _) => Intent::Take {
                item: everything_or(rest()),
            },
            ("drink" | "quaff", _) => Intent::Use {
                item: rest(),
                drink: true,
            },
            ("use" | "apply", _) => Intent::Use {
                item: rest(),
                drink: false,
            },
            (
                "talk" | "ask" | "say" | "tell" | "speak" | "answer" | "reply" | "greet" | "shout"
                | "whisper" | "call",
                _,
            ) => Intent::Talk {
                words: text.trim().to_owned(),
            },
            ("persuade" | "convince" | "plead" | "beg" | "coax" | "charm" | "flatter", _) => {
                social(Sway::Persuasion)
            }
            ("lie" | "deceive" | "bluff" | "trick" | "fool", _) => social(Sway::Deception),
            ("intimidate" | "threaten" | "menace" | "scare" | "bully", _) => {
                social(Sway::Intimidation)
            }
            ("sense" | "insight" | "gauge" | "judge", _) => social(Sway::Insight),
            ("disarm" | "defuse" | "disable", _) => Intent::Disarm { target: rest() },
            ("give" | "offer" | "hand", _) => Intent::Give {
                words: text.trim().to_owned(),
            },
            ("rest" | "sleep" | "camp", _) => Intent::Rest {
                long: token != "rest",
            },
            ("flee" | "run" | "escape" | "retreat", _) => {
                match rest().filter(|r| words(r).iter().any(|w| is_direction(w))) {
                    Some(direction) => Intent::Move {
                        destination: Some(direction),
                        back: false,
                    },
                    None => Intent::Flee,
                }
            }
            _ => continue,
        };
        return intent;
    }
    Intent::Unknown
}

/// "cast fire bolt at the wolf" → spell "fire bolt", target "wolf".
fn cast(tokens: &[String]) -> Intent {
    let split = tokens
        .iter()
        .position(|t| matches!(t.as_str(), "at" | "on" | "against" | "upon"));
    let (spell, target) = match split {
        Some(at) => (&tokens[..at], phrase(&tokens[at + 1..])),
        None => (tokens, None),
    };
    match phrase(spell) {
        Some(spell) => Intent::Cast { spell, target },
        None => Intent::Unknown,
    }
}

/// The take-all suggestion's words: [`parse_intent`] reads them as all the loot in view, so what
/// the offline game master suggests is what it understands.
pub(crate) const TAKE_EVERYTHING: &str = "Take everything within reach";

/// `None` (all the loot in view) for "everything", "all", "it all", also when followed only by
/// words saying where ("everything within reach", "all here"); otherwise the phrase, which may
/// still name a place ("everything from the shelf").
fn everything_or(item: Option<String>) -> Option<String> {
    item.filter(|phrase| {
        let words: Vec<&str> = phrase.split(' ').collect();
        let rest = match words.as_slice() {
            ["it", "all", rest @ ..] => rest,
            ["all" | "everything" | "loot", rest @ ..] => rest,
            _ => return true,
        };
        let in_view = |w: &&str| {
            matches!(
                *w,
                "within" | "in" | "reach" | "here" | "there" | "sight" | "view" | "around"
            )
        };
        !rest.iter().all(in_view)
    })
}

/// The significant words of a token list, joined; `None` when nothing significant is left.
fn phrase(tokens: &[String]) -> Option<String> {
    let kept: Vec<&str> = tokens
        .iter()
        .map(String::as_str)
        .filter(|t| !is_filler(t))
        .collect();
    (!kept.is_empty()).then(|| kept.join(" "))
}
