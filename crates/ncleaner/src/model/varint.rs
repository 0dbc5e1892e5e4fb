//! LEB128 varints: the integers of the binary model file's count tables
//! ([`super::file`]) and of the scorer's stored tables
//! ([`super::scorer::Scorer::write`]), seven bits a byte, low bits first.

/// Appends `x` as a varint.
pub(super) fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Reads a varint at `pos` and moves `pos` past it.
pub(super) fn get_varint(bytes: &[u8], pos: &mut usize) -> std::result::Result<u64, String> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos).ok_or("truncated")?;
        *pos += 1;
        x |= ((b & 0x7f) as u64) << shift;
        if b & 0x80 == 0 {
            return Ok(x);
        }
    }
    Err("varint too long".into())
}
