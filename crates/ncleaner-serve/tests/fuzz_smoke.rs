//! The fuzz target's harness (`fuzz/fuzz_targets/serve.rs`) without
//! libFuzzer: seed requests and pseudo-random mutations of them go through
//! `ncleaner_serve::fuzzing::one_request`, which panics on a 500, a non-HTTP
//! answer or a hang.

const SEEDS: &[&[u8]] = &[
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/html\r\nContent-Length: 27\r\n\r\n<p>Hello, world, a page.</p>",
    b"POST /api/clean?model=en&method=heuristics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 41\r\n\r\n{\"text\":\"A line.\\nAnother one.\",\"url\":\"u\"}",
    b"POST /api/clean HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    b"POST /api/perplexity HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 25\r\n\r\n{\"text\":\"Some sentence.\"}",
    b"POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 24\r\n\r\n{\"fetch\":\"http://[::1]\"}",
    b"GET /api/models HTTP/1.1\r\nHost: localhost\r\n\r\nGET /nothing HTTP/1.1\r\nHost: localhost\r\n\r\n",
];

#[test]
fn fuzz_harness_smoke() {
    for seed in SEEDS {
        let out = ncleaner_serve::fuzzing::one_request(seed);
        assert!(
            out.starts_with(b"HTTP/1.1 "),
            "{:?}",
            String::from_utf8_lossy(seed)
        );
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..300 {
        let mut r = SEEDS[(next() % SEEDS.len() as u64) as usize].to_vec();
        for _ in 0..(next() % 8) {
            let i = (next() % (r.len() as u64 + 1)) as usize;
            match next() % 4 {
                0 if i < r.len() => r[i] = next() as u8,
                1 => r.insert(i, next() as u8),
                2 if i < r.len() => {
                    r.remove(i);
                }
                _ => r.truncate(i),
            }
        }
        ncleaner_serve::fuzzing::one_request(&r);
    }
}
