//! Hostile peers against a real server on 127.0.0.1: one test binary, one file per surface.

mod web;
