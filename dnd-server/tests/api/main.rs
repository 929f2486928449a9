//! The API against an in-process server on 127.0.0.1:0: the offline game master, seeded dice,
//! a temporary SQLite file. Nothing here reaches the internet.

mod campaigns;
mod errors;
mod fair;
mod support;
mod turns;
