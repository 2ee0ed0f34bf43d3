//! The running tally of what plugin calls cost, kept in the registry
//! (`usage` in the file): for each plugin, when a call of it last ended
//! and last succeeded, and for each operation and result a histogram of
//! the calls' wall time, CPU time and peak memory, with how many failed by
//! reaching each cap. It only grows, like `operations`: the metrics'
//! histograms are made from it, so they cover every call recorded since
//! the registry began keeping it (Prometheus's `rate()` and `increase()`
//! take any window of that), and survive the event log's rotation.
//!
//! The buckets are fixed ([`WALL_BOUNDS`], [`CPU_BOUNDS`],
//! [`MEMORY_BOUNDS`]): a histogram's counts are kept per bucket, so the
//! bounds can only change under a new field name.
//!
//! Every fingerprint reads and rewrites the registry, so a plugin's
//! account is written as one string of `key=value` words (see
//! [`Account`]'s serde form): a fifth of the bytes of the same as nested
//! objects, and a tenth of the work to read and write.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::family::Operation;
use crate::usage::{Cap, Usage};

/// Upper bounds of the wall-time buckets, in microseconds (5 ms to 60 s:
/// Nomad's budgets are 1 s for a fingerprint and 60 s for an operation).
pub const WALL_BOUNDS: [u64; 13] = [
    5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000,
    10_000_000, 30_000_000, 60_000_000,
];

/// Upper bounds of the CPU-time buckets, in microseconds (1 ms to 30 s).
pub const CPU_BOUNDS: [u64; 13] = [
    1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000,
    5_000_000, 10_000_000, 30_000_000,
];

/// Upper bounds of the peak-memory buckets, in KiB (1 MiB to 4 GiB, each
/// twice the last).
pub const MEMORY_BOUNDS: [u64; 13] = [
    1 << 10,
    1 << 11,
    1 << 12,
    1 << 13,
    1 << 14,
    1 << 15,
    1 << 16,
    1 << 17,
    1 << 18,
    1 << 19,
    1 << 20,
    1 << 21,
    1 << 22,
];

/// family → plugin name → its account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ledger(pub BTreeMap<String, BTreeMap<String, Account>>);

/// One plugin's calls. Written as one string of space-separated words:
/// `run=TIME` (the last call's end), `ok=TIME` (the last success's),
/// `OPERATION/RESULT=WALL;CPU;RSS` for each operation and result that
/// ran, each histogram `COUNT,SUM,B0,B1,...` (see [`Histogram`]), and
/// `cap/CAP=N` for each cap reached: `run=2026-11-27T16:31:15.401Z
/// ok=2026-11-27T16:31:15.401Z fingerprint/ok=2,7000,0,2;2,900,2;2,30000,0,0,0,0,2`.
/// Words it does not know (a later plugctl's) are skipped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Account {
    /// When a call of it last ended (RFC 3339).
    pub last_run: Option<String>,
    /// When a call of it last succeeded (RFC 3339).
    pub last_success: Option<String>,
    /// The calls' costs by operation and result, in the order of their
    /// names (as the metrics list them); a few at most: a map per plugin
    /// would cost a page of memory of its own for them.
    pub calls: Vec<(Operation, Outcome, Tally)>,
    /// Calls that failed by reaching a cap, by cap.
    pub over_cap: BTreeMap<Cap, u64>,
}

/// How a call ended, as the metrics' `result` label says it (in the
/// order its names sort, as the metrics list their series).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Error,
    Ok,
}

impl Outcome {
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error => "error",
        }
    }

    fn of(name: &str) -> Option<Outcome> {
        [Outcome::Error, Outcome::Ok]
            .into_iter()
            .find(|o| o.name() == name)
    }
}

/// Buckets a histogram keeps: one per bound, and one past the last.
pub const BUCKETS: usize = 14;

/// The costs of the calls of one plugin, operation and result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Wall time, in microseconds.
    pub wall_us: Histogram,
    /// User plus system CPU time, in microseconds (calls whose CPU time is
    /// unknown are not counted here).
    pub cpu_us: Histogram,
    /// Peak resident memory, in KiB (likewise).
    pub rss_kib: Histogram,
}

/// How many observations, their sum, and how many fell in each bucket
/// (not cumulative: the last counts those above the top bound). Written
/// `COUNT,SUM,B0,B1,...`, trailing empty buckets left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    pub count: u64,
    pub sum: u64,
    pub buckets: [u64; BUCKETS],
}

impl Histogram {
    fn observe(&mut self, value: u64, bounds: &[u64]) {
        let at = bounds.partition_point(|&b| b < value).min(BUCKETS - 1);
        self.buckets[at] += 1;
        self.count += 1;
        self.sum = self.sum.saturating_add(value);
    }

    /// Each bound (`None`: +Inf) with the observations at or below it, as
    /// Prometheus counts them (cumulative); +Inf is never below the count.
    pub fn cumulative(&self, bounds: &[u64]) -> Vec<(Option<u64>, u64)> {
        let mut total: u64 = 0;
        let mut out = Vec::with_capacity(bounds.len() + 1);
        for (i, bound) in bounds.iter().enumerate() {
            total = total.saturating_add(self.buckets.get(i).copied().unwrap_or(0));
            out.push((Some(*bound), total));
        }
        let rest: u64 = self.buckets.iter().skip(bounds.len()).sum();
        out.push((None, self.count.max(total.saturating_add(rest))));
        out
    }
}

impl Histogram {
    fn write(&self, out: &mut String) {
        let end = self
            .buckets
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |i| i + 1);
        push_number(out, self.count);
        out.push(',');
        push_number(out, self.sum);
        for &n in &self.buckets[..end] {
            out.push(',');
            push_number(out, n);
        }
    }

    fn parse(text: &str) -> Result<Histogram, String> {
        if text.is_empty() {
            return Ok(Histogram::default());
        }
        let mut numbers = text.split(',').map(str::parse::<u64>);
        let mut next = |what| match numbers.next() {
            Some(Ok(n)) => Ok(n),
            _ => Err(format!(
                "a histogram is COUNT,SUM,BUCKETS...: no {what} in {}",
                crate::escape::quote(text)
            )),
        };
        let count = next("count")?;
        let sum = next("sum")?;
        let mut buckets = [0u64; BUCKETS];
        for (i, n) in numbers.enumerate() {
            let n = n.map_err(|_| format!("a bad bucket in {}", crate::escape::quote(text)))?;
            // More than there are (a hand-edited file): past the last bound.
            let slot = &mut buckets[i.min(BUCKETS - 1)];
            *slot = (*slot).saturating_add(n);
        }
        Ok(Histogram {
            count,
            sum,
            buckets,
        })
    }
}

/// A number's digits, without `fmt` (every fingerprint writes a few
/// thousand of them).
fn push_number(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

impl Account {
    fn write(&self) -> String {
        let mut out = String::with_capacity(160);
        let word = |out: &mut String, key: &str| {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(key);
        };
        if let Some(t) = &self.last_run {
            word(&mut out, "run=");
            out.push_str(t);
        }
        if let Some(t) = &self.last_success {
            word(&mut out, "ok=");
            out.push_str(t);
        }
        for (op, result, t) in &self.calls {
            word(&mut out, op.name());
            out.push('/');
            out.push_str(result.name());
            out.push('=');
            t.wall_us.write(&mut out);
            out.push(';');
            t.cpu_us.write(&mut out);
            out.push(';');
            t.rss_kib.write(&mut out);
        }
        for (cap, n) in &self.over_cap {
            word(&mut out, "cap/");
            out.push_str(cap.name());
            out.push('=');
            push_number(&mut out, *n);
        }
        out
    }

    /// The costs of one operation and result, if any call had them.
    pub fn tally(&self, op: Operation, result: Outcome) -> Option<&Tally> {
        self.calls
            .iter()
            .find(|(o, r, _)| (*o, *r) == (op, result))
            .map(|(_, _, t)| t)
    }

    /// The costs of one operation and result, made empty when new.
    fn tally_mut(&mut self, op: Operation, result: Outcome) -> &mut Tally {
        let at = match self
            .calls
            .binary_search_by(|(o, r, _)| (o.name(), *r).cmp(&(op.name(), result)))
        {
            Ok(at) => at,
            Err(at) => {
                self.calls.insert(at, (op, result, Tally::default()));
                at
            }
        };
        &mut self.calls[at].2
    }

    fn parse(text: &str) -> Result<Account, String> {
        let mut a = Account::default();
        for w in text.split_ascii_whitespace() {
            let Some((key, value)) = w.split_once('=') else {
                return Err(format!("{} is not KEY=VALUE", crate::escape::quote(w)));
            };
            match key.split_once('/') {
                None if key == "run" => a.last_run = Some(value.to_string()),
                None if key == "ok" => a.last_success = Some(value.to_string()),
                Some(("cap", name)) => {
                    let Some(cap) = Cap::ALL.into_iter().find(|c| c.name() == name) else {
                        continue;
                    };
                    let n = value
                        .parse()
                        .map_err(|_| format!("a bad count in {}", crate::escape::quote(w)))?;
                    a.over_cap.insert(cap, n);
                }
                Some((op, result)) => {
                    let (Some(op), Some(result)) = (Operation::of(op), Outcome::of(result)) else {
                        continue;
                    };
                    let mut parts = value.split(';').map(Histogram::parse);
                    let mut next = || parts.next().unwrap_or_else(|| Ok(Histogram::default()));
                    let tally = Tally {
                        wall_us: next()?,
                        cpu_us: next()?,
                        rss_kib: next()?,
                    };
                    *a.tally_mut(op, result) = tally;
                }
                // A later plugctl's word.
                None => {}
            }
        }
        Ok(a)
    }
}

impl Serialize for Account {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.write())
    }
}

impl<'de> Deserialize<'de> for Account {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Account, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Account::parse(&text).map_err(|why| serde::de::Error::custom(format_args!("usage: {why}")))
    }
}

/// One call, as it is charged.
#[derive(Debug, Clone, Copy)]
pub struct Charge<'a> {
    pub family: &'a str,
    pub name: &'a str,
    pub operation: Operation,
    pub ok: bool,
    pub usage: &'a Usage,
}

impl Charge<'_> {
    pub fn result(&self) -> Outcome {
        if self.ok { Outcome::Ok } else { Outcome::Error }
    }
}

impl Ledger {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds one call that ended at `at` (RFC 3339).
    pub fn charge(&mut self, call: Charge<'_>, at: &str) {
        // Looked up before any key is made: a fingerprint charges every
        // plugin on every run, and almost always finds its account.
        let plugins = match self.0.get_mut(call.family) {
            Some(p) => p,
            None => self.0.entry(call.family.to_string()).or_default(),
        };
        if !plugins.contains_key(call.name) {
            plugins.insert(call.name.to_string(), Account::default());
        }
        let Some(account) = plugins.get_mut(call.name) else {
            return;
        };
        let u = call.usage;
        let tally = account.tally_mut(call.operation, call.result());
        tally
            .wall_us
            .observe(micros(u.wall.as_micros()), &WALL_BOUNDS);
        if let Some(cpu) = u.cpu_total() {
            tally.cpu_us.observe(micros(cpu.as_micros()), &CPU_BOUNDS);
        }
        if let Some(kib) = u.max_rss_kib {
            tally.rss_kib.observe(kib, &MEMORY_BOUNDS);
        }
        if let Some(cap) = u.over_cap {
            *account.over_cap.entry(cap).or_default() += 1;
        }
        later(&mut account.last_run, at);
        if call.ok {
            later(&mut account.last_success, at);
        }
    }

    /// Drops a plugin's account (`plugin forget`): its series go from the
    /// metrics with it.
    pub fn forget(&mut self, family: &str, name: &str) {
        if let Some(plugins) = self.0.get_mut(family) {
            plugins.remove(name);
            if plugins.is_empty() {
                self.0.remove(family);
            }
        }
    }

    /// The account of one plugin, if it ran.
    pub fn account(&self, family: &str, name: &str) -> Option<&Account> {
        self.0.get(family)?.get(name)
    }
}

fn micros(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// Keeps the later of two RFC 3339 times as plugctl writes them (UTC,
/// milliseconds, `Z`: they sort as text), in the string already there.
fn later(slot: &mut Option<String>, at: &str) {
    match slot {
        Some(t) if t.as_str() < at => {
            t.clear();
            t.push_str(at);
        }
        Some(_) => {}
        None => *slot = Some(at.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::usage::{CpuTime, Source};

    fn usage(wall_ms: u64, cpu_ms: u64, rss_kib: u64) -> Usage {
        Usage {
            wall: Duration::from_millis(wall_ms),
            cpu: Some(CpuTime {
                user: Duration::from_millis(cpu_ms),
                system: Duration::ZERO,
            }),
            max_rss_kib: Some(rss_kib),
            processes: 1,
            source: Source::Rusage,
            over_cap: None,
        }
    }

    fn charge(l: &mut Ledger, ok: bool, u: &Usage, at: &str) {
        l.charge(
            Charge {
                family: "host-volume",
                name: "dir",
                operation: Operation::Create,
                ok,
                usage: u,
            },
            at,
        );
    }

    #[test]
    fn each_call_lands_in_the_first_bucket_whose_bound_it_does_not_pass() {
        let mut l = Ledger::default();
        // 5 ms is the first bound itself; 6 ms the second bucket.
        charge(&mut l, true, &usage(5, 0, 1024), "2025-01-01T00:00:00.000Z");
        charge(&mut l, true, &usage(6, 2, 1025), "2025-01-01T00:00:01.000Z");
        charge(
            &mut l,
            true,
            &usage(600_000, 0, 1 << 30),
            "2025-01-01T00:00:02.000Z",
        );
        let t = l
            .account("host-volume", "dir")
            .unwrap()
            .tally(Operation::Create, Outcome::Ok)
            .unwrap();
        assert_eq!(t.wall_us.buckets[..2], [1, 1]);
        assert_eq!(t.wall_us.count, 3);
        assert_eq!(t.wall_us.sum, 5_000 + 6_000 + 600_000_000);
        let wall = t.wall_us.cumulative(&WALL_BOUNDS);
        assert_eq!(wall[0], (Some(5_000), 1));
        assert_eq!(wall[12], (Some(60_000_000), 2));
        assert_eq!(wall[13], (None, 3), "past the top bound: +Inf only");
        let mem = t.rss_kib.cumulative(&MEMORY_BOUNDS);
        assert_eq!((mem[0].1, mem[1].1, mem[13].1), (1, 2, 3));
        // A CPU time of 0 is observed (in the first bucket), not skipped.
        assert_eq!(t.cpu_us.count, 3);
    }

    #[test]
    fn last_run_and_last_success_move_forward_only() {
        let mut l = Ledger::default();
        charge(&mut l, true, &usage(1, 1, 1), "2025-01-01T00:00:05.000Z");
        charge(&mut l, false, &usage(1, 1, 1), "2025-01-01T00:00:09.000Z");
        charge(&mut l, true, &usage(1, 1, 1), "2025-01-01T00:00:01.000Z");
        let a = l.account("host-volume", "dir").unwrap();
        assert_eq!(a.last_run.as_deref(), Some("2025-01-01T00:00:09.000Z"));
        assert_eq!(a.last_success.as_deref(), Some("2025-01-01T00:00:05.000Z"));
        assert_eq!(
            a.tally(Operation::Create, Outcome::Error)
                .unwrap()
                .wall_us
                .count,
            1
        );
    }

    #[test]
    fn a_cap_reached_is_counted_and_a_clock_only_call_has_no_cpu_or_memory() {
        let mut l = Ledger::default();
        let mut u = Usage::clock(Duration::from_millis(3));
        u.over_cap = Some(Cap::Memory);
        charge(&mut l, false, &u, "2025-01-01T00:00:00.000Z");
        let a = l.account("host-volume", "dir").unwrap();
        assert_eq!(a.over_cap[&Cap::Memory], 1);
        let t = a.tally(Operation::Create, Outcome::Error).unwrap();
        assert_eq!(
            (t.wall_us.count, t.cpu_us.count, t.rss_kib.count),
            (1, 0, 0)
        );
    }

    #[test]
    fn the_file_form_is_one_string_per_plugin_and_reads_back() {
        let mut l = Ledger::default();
        charge(&mut l, true, &usage(7, 2, 1500), "2025-01-01T00:00:00.000Z");
        let mut u = usage(7, 2, 1500);
        u.over_cap = Some(Cap::Tasks);
        charge(&mut l, false, &u, "2025-01-01T00:00:01.000Z");
        let json = serde_json::to_value(&l).unwrap();
        assert_eq!(
            json["host-volume"]["dir"],
            "run=2025-01-01T00:00:01.000Z ok=2025-01-01T00:00:00.000Z \
             create/error=1,7000,0,1;1,2000,0,1;1,1500,0,1 \
             create/ok=1,7000,0,1;1,2000,0,1;1,1500,0,1 cap/tasks=1"
        );
        let back: Ledger = serde_json::from_value(json).unwrap();
        assert_eq!(back, l);
        // A later plugctl's words are skipped; a broken figure is refused.
        let later: Account = serde_json::from_str(r#""run=x shiny=1 fetch/ok=1,2;;""#).unwrap();
        assert_eq!(later.last_run.as_deref(), Some("x"));
        assert_eq!(
            later
                .tally(Operation::Fetch, Outcome::Ok)
                .unwrap()
                .wall_us
                .count,
            1
        );
        for bad in [
            "create/ok=1",
            "create/ok=1,x",
            "create/ok=1,2,-3",
            "run",
            "cap/cpu=x",
        ] {
            let text = format!("{bad:?}");
            assert!(serde_json::from_str::<Account>(&text).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn numbers_are_written_as_their_digits() {
        for n in [0, 7, 10, 1_000_000, u64::MAX] {
            let mut s = String::new();
            push_number(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn forget_drops_a_plugin_and_its_family_when_it_was_the_last() {
        let mut a = Ledger::default();
        charge(&mut a, true, &usage(7, 2, 1500), "2025-01-01T00:00:00.000Z");
        a.forget("host-volume", "nope");
        assert!(a.account("host-volume", "dir").is_some());
        a.forget("host-volume", "dir");
        assert!(a.is_empty());
    }
}
