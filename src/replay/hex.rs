//! Lower-case hex, written once: a chain head or digest as its sixteen digits (goldens, bundles,
//! result payloads), and bytes two digits each (reconnect secrets, logged seeds, fuzz inputs).

/// A `u64` as exactly sixteen lower-case digits (a golden's and a bundle's hash text).
pub fn hex(h: u64) -> String {
    format!("{h:016x}")
}

/// Bytes as lower-case hex, two digits each, in order.
pub fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::{hex, hex_bytes};

    #[test]
    fn hashes_keep_their_leading_zeros_and_bytes_their_order() {
        assert_eq!(hex(0xAB), "00000000000000ab");
        assert_eq!(hex(u64::MAX), "ffffffffffffffff");
        assert_eq!(hex_bytes(&[0x00, 0x0f, 0xa0, 0xff]), "000fa0ff");
        assert_eq!(hex_bytes(&[]), "");
    }
}
