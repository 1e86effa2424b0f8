//! Quartermaster: army builder and campaign manager for tabletop wargames.
//!
//! The library holds every feature; the binary (`src/main.rs`) and the desktop UI are thin
//! layers over it. See `DESIGN.md` in the shared folder for the architecture.

#![forbid(unsafe_code)]

pub mod campaign;
pub mod cli;
pub mod crash;
pub mod export;
pub mod rules;
pub mod store;
pub mod sync;
pub mod ui;
