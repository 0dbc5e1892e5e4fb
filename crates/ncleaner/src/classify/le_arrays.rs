//! The classifier's long arrays in a model file's JSON: each written as one
//! base64 string of its values' little-endian bytes, not as a JSON array of
//! numbers. These are the trees' splits and leaves ([`super::trees::Forest`],
//! also the page type's forests) and the attribute words' log-odds
//! ([`super::attrs::AttrModel`]): nearly all of the classifier's JSON.
//!
//! Reading those numbers as decimal text was most of the cost of opening a
//! model, which every process pays before its first page: of the 136 M
//! instructions of cleaning one small page, 94 M were the JSON of `en`'s
//! classifier, 60 M of them serde_json's number parsing (callgrind). A
//! value's bytes are read back as the very value written, as its shortest
//! decimal form was.
//!
//! Model files of format version 3 and before hold arrays of numbers (and
//! the log-odds as a JSON object), which are read as before: each field
//! takes either form.

use std::fmt;
use std::marker::PhantomData;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serializer};

/// A value stored as its little-endian bytes.
pub(crate) trait Le: Copy {
    /// Its bytes.
    const SIZE: usize;
    /// Appends its bytes to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// The value of `SIZE` bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! le {
    ($($t:ty),*) => {$(
        impl Le for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("SIZE bytes"))
            }
        }
    )*};
}
le!(u16, u32, f32);

/// Writes `values` as a base64 string of their bytes (`serialize_with`).
pub(crate) fn serialize<T: Le, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
    let mut bytes = Vec::with_capacity(values.len() * T::SIZE);
    for &v in values {
        v.put(&mut bytes);
    }
    s.serialize_str(&STANDARD.encode(bytes))
}

/// Reads what [`serialize`] writes, or a JSON array of numbers (format
/// version 3 and before) (`deserialize_with`).
pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Vec<T>, D::Error>
where
    T: Le + Deserialize<'de>,
    D: Deserializer<'de>,
{
    struct Values<T>(PhantomData<T>);
    impl<'de, T: Le + Deserialize<'de>> Visitor<'de> for Values<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an array of numbers, or a base64 string of their little-endian bytes")
        }

        fn visit_str<E: de::Error>(self, s: &str) -> Result<Vec<T>, E> {
            let bytes = decode::<E>(s, T::SIZE)?;
            Ok(bytes.chunks_exact(T::SIZE).map(T::get).collect())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            // The hint is the input's claim: bounded, not trusted.
            let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            while let Some(v) = seq.next_element()? {
                values.push(v);
            }
            Ok(values)
        }
    }
    d.deserialize_any(Values(PhantomData))
}

/// Writes a map of `u32` keys to `f32` values as a base64 string of its
/// entries' bytes (key, value), in key order, so that the same map is
/// always the same bytes.
pub(crate) fn serialize_map<S: Serializer>(
    map: &rustc_hash::FxHashMap<u32, f32>,
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut entries: Vec<(u32, f32)> = map.iter().map(|(&k, &v)| (k, v)).collect();
    entries.sort_unstable_by_key(|e| e.0);
    let mut bytes = Vec::with_capacity(entries.len() * 8);
    for (k, v) in entries {
        k.put(&mut bytes);
        v.put(&mut bytes);
    }
    s.serialize_str(&STANDARD.encode(bytes))
}

/// Reads what [`serialize_map`] writes, or a JSON object of the keys as
/// decimal strings (format version 3 and before).
pub(crate) fn deserialize_map<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<rustc_hash::FxHashMap<u32, f32>, D::Error> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = rustc_hash::FxHashMap<u32, f32>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map of numbers, or a base64 string of its entries' little-endian bytes")
        }

        fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
            let bytes = decode::<E>(s, 8)?;
            let mut map = rustc_hash::FxHashMap::default();
            map.reserve(bytes.len() / 8);
            for e in bytes.chunks_exact(8) {
                map.insert(u32::get(&e[..4]), f32::get(&e[4..]));
            }
            Ok(map)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
            let mut map = rustc_hash::FxHashMap::default();
            while let Some((k, v)) = entries.next_entry()? {
                map.insert(k, v);
            }
            Ok(map)
        }
    }
    d.deserialize_any(Entries)
}

/// The bytes of a base64 string, a whole number of `size`-byte values.
fn decode<E: de::Error>(s: &str, size: usize) -> Result<Vec<u8>, E> {
    let bytes = STANDARD.decode(s).map_err(E::custom)?;
    if bytes.len() % size != 0 {
        return Err(E::custom(format!(
            "{} bytes are not a whole number of {size}-byte values",
            bytes.len()
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Arrays {
        #[serde(serialize_with = "serialize", deserialize_with = "deserialize")]
        f: Vec<f32>,
        #[serde(serialize_with = "serialize", deserialize_with = "deserialize")]
        u: Vec<u16>,
        #[serde(serialize_with = "serialize_map", deserialize_with = "deserialize_map")]
        m: rustc_hash::FxHashMap<u32, f32>,
    }

    fn sample() -> Arrays {
        Arrays {
            f: vec![0.1, -3.5e-7, f32::MAX, f32::MIN_POSITIVE, -0.0, 1.0 / 3.0],
            u: vec![0, 7, u16::MAX],
            m: [(3, 0.25f32), (1, -1.5e-5), (4_000_000_000, 7.0)]
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn values_are_read_back_bit_for_bit() {
        let a = sample();
        let json = serde_json::to_string(&a).unwrap();
        assert!(json.contains("\"f\":\""), "written as a string: {json}");
        let back: Arrays = serde_json::from_str(&json).unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.f), bits(&a.f));
        assert_eq!(back.u, a.u);
        assert_eq!(back.m, a.m);
    }

    #[test]
    fn the_same_map_is_the_same_bytes() {
        let a = sample();
        let mut b = sample();
        // Another insertion order, another hash map layout.
        let mut entries: Vec<(u32, f32)> = a.m.iter().map(|(&k, &v)| (k, v)).collect();
        entries.reverse();
        b.m = entries.into_iter().collect();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
    }

    #[test]
    fn the_older_form_of_numbers_is_read() {
        let json = r#"{"f":[0.1,-3.5e-7,1],"u":[0,7,65535],"m":{"3":0.25,"1":-1.5}}"#;
        let a: Arrays = serde_json::from_str(json).unwrap();
        assert_eq!(a.f, vec![0.1, -3.5e-7, 1.0]);
        assert_eq!(a.u, vec![0, 7, 65535]);
        assert_eq!(a.m.len(), 2);
        assert_eq!(a.m[&1], -1.5);
    }

    #[test]
    fn bad_strings_are_errors() {
        for bad in [
            // Not base64.
            r#"{"f":"*","u":[],"m":{}}"#,
            // Five bytes: not a whole number of f32s.
            r#"{"f":"AAAAAAA=","u":[],"m":{}}"#,
            // Four bytes: not a whole entry of the map.
            r#"{"f":[],"u":[],"m":"AAAAAA=="}"#,
            // Neither form.
            r#"{"f":7,"u":[],"m":{}}"#,
        ] {
            assert!(serde_json::from_str::<Arrays>(bad).is_err(), "{bad}");
        }
    }
}
