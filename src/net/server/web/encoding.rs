//! `Accept-Encoding` (RFC 9110 §12.5.3): which content coding of a static file a client takes.
//! `web/build.sh` writes `X.br` and `X.gz` beside the big files; this reads the client's weights
//! and picks among the codings on disk. A header it cannot parse gets identity, never an error:
//! the uncompressed file is always a correct answer.

/// A content coding the web port can send (the ones the build writes, and none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    Br,
    Gzip,
    Identity,
}

impl Coding {
    /// On equal weight the smaller download wins: brotli's files are ~20 % smaller than gzip's.
    const PREFERENCE: [Coding; 3] = [Coding::Br, Coding::Gzip, Coding::Identity];

    /// The `Content-Encoding` value; identity sends none.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Coding::Br => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }

    /// What the build appends to a file's name for this coding.
    pub fn suffix(self) -> &'static str {
        match self {
            Coding::Br => ".br",
            Coding::Gzip => ".gz",
            Coding::Identity => "",
        }
    }
}

/// What a client accepts: each coding's weight in thousandths (a qvalue has three decimals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accepted {
    br: u16,
    gzip: u16,
    identity: u16,
}

/// Identity when the header does not name it: acceptable (§12.5.3), but the last resort, so a
/// coding the client listed with any weight wins over it.
const IMPLICIT_IDENTITY: u16 = 1;

/// Why a header was not understood (the answer is then identity).
#[derive(Debug, PartialEq, Eq)]
pub struct Malformed;

impl Accepted {
    /// No coding but identity: the answer to a request without the header (a client that did
    /// not ask for compression may not decode it: `curl` without `--compressed`) or with a
    /// header this cannot read.
    pub const IDENTITY: Accepted = Accepted { br: 0, gzip: 0, identity: 1000 };

    /// The weights of every `Accept-Encoding` line of a request (together one list); identity
    /// only when there is none or one is malformed.
    pub fn from_headers<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> Accepted {
        let mut lines = lines.into_iter().peekable();
        if lines.peek().is_none() {
            return Accepted::IDENTITY;
        }
        Accepted::parse(lines).unwrap_or(Accepted::IDENTITY)
    }

    /// Parses the lines of the header. Weights of a coding named twice: the lower one.
    pub fn parse<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> Result<Accepted, Malformed> {
        let (mut br, mut gzip, mut identity, mut star) = (None, None, None, None);
        for line in lines {
            for element in line.split(|&b| b == b',') {
                let element = trim(element);
                if element.is_empty() {
                    continue; // the list syntax allows empty elements (RFC 9110 §5.6.1)
                }
                let (name, q) = coding(element)?;
                let slot = match name.to_ascii_lowercase().as_slice() {
                    b"br" => &mut br,
                    // RFC 9110 §8.4.1.3: x-gzip is gzip.
                    b"gzip" | b"x-gzip" => &mut gzip,
                    b"identity" => &mut identity,
                    b"*" => &mut star,
                    _ => continue, // a coding we never send: its weight matters to no one
                };
                *slot = Some(slot.map_or(q, |old: u16| old.min(q)));
            }
        }
        Ok(Accepted {
            br: br.or(star).unwrap_or(0),
            gzip: gzip.or(star).unwrap_or(0),
            identity: identity.unwrap_or(if star == Some(0) { 0 } else { IMPLICIT_IDENTITY }),
        })
    }

    /// The weight of `coding` (0: refused).
    pub fn weight(&self, coding: Coding) -> u16 {
        match coding {
            Coding::Br => self.br,
            Coding::Gzip => self.gzip,
            Coding::Identity => self.identity,
        }
    }

    /// The acceptable coding of highest weight among those `on_disk` has (asked only of the
    /// ones the client accepts; identity is always there), brotli before gzip before identity
    /// on equal weight. Identity when nothing is acceptable: never a 406 for a file we have.
    pub fn choose(&self, mut on_disk: impl FnMut(Coding) -> bool) -> Coding {
        let mut best: Option<(Coding, u16)> = None;
        for c in Coding::PREFERENCE {
            let w = self.weight(c);
            if w == 0 || best.is_some_and(|(_, b)| b >= w) {
                continue;
            }
            if c == Coding::Identity || on_disk(c) {
                best = Some((c, w));
            }
        }
        best.map_or(Coding::Identity, |(c, _)| c)
    }
}

/// One list element, `coding *( OWS ";" OWS "q=" qvalue )`: its name and weight (1 if none).
fn coding(element: &[u8]) -> Result<(&[u8], u16), Malformed> {
    let mut parts = element.split(|&b| b == b';');
    let name = trim(parts.next().unwrap_or_default());
    if name.is_empty() || !name.iter().all(|&b| tchar(b)) {
        return Err(Malformed);
    }
    let mut q = None;
    for param in parts {
        let param = trim(param);
        let value = match param {
            [b'q' | b'Q', b'=', value @ ..] if q.is_none() => value,
            _ => return Err(Malformed), // the only parameter a coding takes is one weight
        };
        q = Some(qvalue(value).ok_or(Malformed)?);
    }
    Ok((name, q.unwrap_or(1000)))
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths.
fn qvalue(text: &[u8]) -> Option<u16> {
    let (int, frac) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (&text[..dot], &text[dot + 1..]),
        None => (text, &[][..]),
    };
    if frac.len() > 3 || !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let thousandths = frac
        .iter()
        .chain(std::iter::repeat(&b'0'))
        .take(3)
        .fold(0u16, |n, d| n * 10 + u16::from(d - b'0'));
    match int {
        b"0" => Some(thousandths),
        b"1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// RFC 9110 §5.6.2's token characters.
fn tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Without optional whitespace (space and tab) at either end.
fn trim(bytes: &[u8]) -> &[u8] {
    let ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes.iter().position(|b| !ows(b)).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !ows(b)).map_or(start, |e| e + 1);
    &bytes[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(header: &str, on_disk: &[Coding]) -> Coding {
        Accepted::from_headers([header.as_bytes()]).choose(|c| on_disk.contains(&c))
    }

    #[test]
    fn weights_stars_and_identity_choose_the_coding() {
        use Coding::{Br, Gzip, Identity};
        let both = [Br, Gzip];
        for (header, want) in [
            ("br", Br),
            ("gzip", Gzip),
            ("gzip, deflate, br, zstd", Br), // what browsers send: equal weight, brotli
            ("GZIP;Q=1, Br;q=0.5", Gzip),
            ("gzip;q=0.9, br;q=0.95", Br),
            ("gzip;q=0, br;q=0", Identity),
            ("identity", Identity),
            ("", Identity), // an empty value asks for no coding (§12.5.3)
            ("*", Br),
            ("*;q=0, gzip", Gzip),
            ("br;q=0, *", Gzip),
            ("x-gzip", Gzip),
            ("br, identity;q=0", Br),
            ("identity;q=0", Identity), // nothing acceptable: identity, not 406
            ("identity;q=1, br;q=0.5", Identity),
            ("deflate", Identity),
            (" , br ;  q=0.5 ,, ", Br),
            ("gzip, gzip;q=0", Identity), // named twice: the lower weight
        ] {
            assert_eq!(pick(header, &both), want, "{header:?}");
        }
        assert_eq!(pick("br, gzip;q=0.5", &[Gzip]), Gzip, "only what is on disk");
        assert_eq!(pick("br", &[]), Identity);
        assert_eq!(Accepted::from_headers([]), Accepted::IDENTITY, "no header: no coding");
        let two_lines = Accepted::from_headers([&b"gzip;q=0.5"[..], b"br;q=0.7"]);
        assert_eq!(two_lines.choose(|_| true), Br, "lines of one header are one list");
    }

    #[test]
    fn a_malformed_header_gets_identity() {
        for header in [
            &b"br;q=2"[..],
            b"br;q=1.5",
            b"br;q=0.0001",
            b"br;q=abc",
            b"br;q=",
            b"br;q",
            b"br;level=11",
            b"br;q=0.5;q=0.7",
            b"br;;",
            b";q=1",
            b"b r",
            b"br\xff",
            b"\"br\"",
        ] {
            assert_eq!(Accepted::parse([header]), Err(Malformed), "{header:?}");
            assert_eq!(Accepted::from_headers([header]).choose(|_| true), Coding::Identity);
        }
    }

    #[test]
    fn qvalues_are_thousandths() {
        for (text, want) in [("0", 0), ("0.", 0), ("0.5", 500), ("0.05", 50), ("0.001", 1)] {
            assert_eq!(qvalue(text.as_bytes()), Some(want), "{text}");
        }
        for (text, want) in [("1", 1000), ("1.", 1000), ("1.000", 1000)] {
            assert_eq!(qvalue(text.as_bytes()), Some(want), "{text}");
        }
        for text in ["1.001", "2", "-0", ".5", "00.5", "0.5x", ""] {
            assert_eq!(qvalue(text.as_bytes()), None, "{text}");
        }
    }
}
