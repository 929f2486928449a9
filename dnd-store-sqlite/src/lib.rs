//! The durable `GameStore`, on embedded SQLite.
//!
//! **Status: not built yet.** This crate reserves its place in the workspace. It will hold
//! `SqliteStore`: rusqlite with the bundled SQLite (nothing to install), schema migrations with a
//! version table, WAL, foreign keys, and one transaction per committed turn, so a crash never
//! leaves half a turn behind.
