//! Bounded capture of a call's output: the head of stdout (a response is
//! read from its start), the tail of stderr (an error is at its end), and
//! a count of what was dropped, so memory stays flat whatever a plugin
//! prints.

/// The first `limit` bytes; the rest only counted.
pub(super) struct Head {
    buf: Vec<u8>,
    limit: usize,
    dropped: u64,
}

impl Head {
    pub(super) fn new(limit: usize) -> Self {
        Head {
            buf: Vec::new(),
            limit,
            dropped: 0,
        }
    }

    pub(super) fn push(&mut self, data: &[u8]) {
        let take = self.limit.saturating_sub(self.buf.len()).min(data.len());
        if self.buf.capacity() < self.buf.len() + take {
            // Plain doubling could reserve up to twice the limit.
            let want = (self.buf.len() + take)
                .max(self.buf.capacity() * 2)
                .min(self.limit);
            self.buf.reserve_exact(want - self.buf.len());
        }
        self.buf.extend_from_slice(&data[..take]);
        self.dropped += (data.len() - take) as u64;
    }

    pub(super) fn finish(self) -> (Vec<u8>, u64) {
        (self.buf, self.dropped)
    }
}

/// The last `limit` bytes: the end of stderr is where the error usually is.
pub(super) struct Tail {
    buf: Vec<u8>,
    limit: usize,
    dropped: u64,
}

impl Tail {
    pub(super) fn new(limit: usize) -> Self {
        Tail {
            buf: Vec::new(),
            limit,
            dropped: 0,
        }
    }

    pub(super) fn push(&mut self, data: &[u8]) {
        if data.len() >= self.limit {
            self.dropped += (self.buf.len() + data.len() - self.limit) as u64;
            self.buf.clear();
            self.buf.extend_from_slice(&data[data.len() - self.limit..]);
            return;
        }
        self.buf.extend_from_slice(data);
        // Trimming only past twice the limit keeps the memmove amortised.
        if self.buf.len() > self.limit.saturating_mul(2) {
            self.trim();
        }
    }

    pub(super) fn trim(&mut self) {
        let cut = self.buf.len().saturating_sub(self.limit);
        self.buf.drain(..cut);
        self.dropped += cut as u64;
    }

    pub(super) fn finish(mut self) -> (Vec<u8>, u64) {
        self.trim();
        (self.buf, self.dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::{Head, Tail};

    #[test]
    fn head_keeps_the_first_bytes_and_counts_the_rest() {
        let mut h = Head::new(5);
        h.push(b"abc");
        h.push(b"defg");
        h.push(b"hij");
        assert_eq!(h.finish(), (b"abcde".to_vec(), 5));
    }

    #[test]
    fn head_under_its_limit_drops_nothing() {
        let mut h = Head::new(100);
        h.push(b"");
        h.push(b"hello");
        assert_eq!(h.finish(), (b"hello".to_vec(), 0));
    }

    #[test]
    fn head_never_reserves_past_its_limit() {
        let mut h = Head::new(1000);
        for _ in 0..100 {
            h.push(&[7; 33]);
        }
        assert!(h.buf.capacity() <= 1000, "{}", h.buf.capacity());
        let (buf, dropped) = h.finish();
        assert_eq!(buf.len(), 1000);
        assert_eq!(dropped, 3300 - 1000);
    }

    #[test]
    fn head_of_zero_only_counts() {
        let mut h = Head::new(0);
        h.push(b"abc");
        assert_eq!(h.finish(), (Vec::new(), 3));
    }

    #[test]
    fn tail_keeps_the_last_bytes_and_counts_the_rest() {
        let mut t = Tail::new(4);
        for chunk in [&b"ab"[..], b"cd", b"ef", b"g"] {
            t.push(chunk);
        }
        assert_eq!(t.finish(), (b"defg".to_vec(), 3));
    }

    #[test]
    fn tail_takes_the_end_of_one_big_write() {
        let mut t = Tail::new(3);
        t.push(b"xy");
        t.push(b"0123456789");
        assert_eq!(t.finish(), (b"789".to_vec(), 9));
    }

    #[test]
    fn tail_stays_within_twice_its_limit_while_pushed() {
        let mut t = Tail::new(8);
        for i in 0..1000u32 {
            t.push(&i.to_le_bytes()[..3]);
            assert!(t.buf.len() <= 16, "{}", t.buf.len());
        }
        let (buf, dropped) = t.finish();
        assert_eq!(buf.len(), 8);
        assert_eq!(dropped, 3000 - 8);
        // The last write's bytes end the buffer.
        assert_eq!(&buf[5..], &999u32.to_le_bytes()[..3]);
    }

    #[test]
    fn tail_under_its_limit_drops_nothing() {
        let mut t = Tail::new(64);
        t.push(b"error: ");
        t.push(b"boom\n");
        assert_eq!(t.finish(), (b"error: boom\n".to_vec(), 0));
    }

    #[test]
    fn tail_of_zero_only_counts() {
        let mut t = Tail::new(0);
        t.push(b"abc");
        t.push(b"");
        t.push(b"de");
        assert_eq!(t.finish(), (Vec::new(), 5));
    }
}
