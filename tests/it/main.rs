//! The integration tests, as one binary: as separate test crates each file cost a link of
//! the whole app on every `cargo test`. Run one group with `cargo test --test it store_api::`.

mod cli_support;
mod export_support;
mod store_support;

mod campaign_import;
mod campaign_share;
mod campaign_sync;
mod campaign_trust;
mod campaign_trust_items;
mod cli;
mod cli_campaign;
mod cli_campaign_rulesets;
mod cli_club;
mod cli_help;
mod cli_league;
mod cli_resolve;
mod cli_text;
mod crash_reports;
mod export_after_action;
mod export_matrix;
mod export_pdf;
mod registry;
mod snapshots_resolve;
mod store_api;
mod store_campaign;
mod store_cli;
mod store_crash;
mod store_first_start;
mod store_refusals;
mod store_roundtrip;
mod store_upgrade;
mod ui_app;
mod ui_board_tracker;
mod ui_campaign;
mod ui_campaign_sync;
mod ui_league;
mod ui_library;
mod ui_promises;
mod ui_recovery;
mod ui_resolve;
mod ui_resolve_layout;
mod ui_table_side;
