//! Response bodies: whole buffers, and files streamed a chunk at a time, so a large file
//! costs its connection one chunk of memory and a slow reader holds only its own task.

use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Bytes, Frame, SizeHint};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

/// The body of every response the web port sends.
pub type WebBody = BoxBody<Bytes, io::Error>;

/// How much of a file is read per chunk.
const CHUNK: usize = 64 * 1024;

/// A body sent whole.
pub fn full(bytes: impl Into<Bytes>) -> WebBody {
    Full::new(bytes.into()).map_err(|never| match never {}).boxed()
}

/// A file's bytes, read as the connection takes them.
pub struct FileBody {
    file: tokio::fs::File,
    left: u64,
    buf: Vec<u8>,
}

impl FileBody {
    /// `len` bytes of `file` (its length when opened: a file that shrinks ends early).
    pub fn boxed(file: tokio::fs::File, len: u64) -> WebBody {
        BodyExt::boxed(FileBody { file, left: len, buf: vec![0; CHUNK] })
    }
}

impl Body for FileBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        let this = &mut *self;
        let want = usize::try_from(this.left).unwrap_or(usize::MAX).min(this.buf.len());
        let mut read = ReadBuf::new(&mut this.buf[..want]);
        match Pin::new(&mut this.file).poll_read(cx, &mut read) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Err(e)) => Poll::Ready(Some(Err(e))),
            Poll::Ready(Ok(())) if read.filled().is_empty() => {
                Poll::Ready(Some(Err(io::ErrorKind::UnexpectedEof.into())))
            }
            Poll::Ready(Ok(())) => {
                let chunk = Bytes::copy_from_slice(read.filled());
                this.left -= chunk.len() as u64;
                Poll::Ready(Some(Ok(Frame::data(chunk))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}
