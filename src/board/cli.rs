//! `undercooked board submit|list`.
