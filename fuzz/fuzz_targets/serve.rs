//! The server's request handling: any bytes as one HTTP/1.1 connection
//! (headers, body, JSON, cleaning). Fails on a panic, a 500, a non-HTTP
//! answer or a hang (`ncleaner_serve::fuzzing::one_request`).
//! Without libFuzzer: `cargo test -p ncleaner-serve --test fuzz_smoke`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ncleaner_serve::fuzzing::one_request(data);
});
