//! Request latencies in an HDR histogram: fixed memory however many requests, and every
//! percentile within 0.1% of the true value (a sorted list of every sample would be exact,
//! but grows with the run).

use hdrhistogram::Histogram;
use std::time::Duration;

/// Latencies recorded in microseconds, from 1 µs to 60 s (requests time out after 30 s).
#[derive(Clone, Debug)]
pub struct Latency(Histogram<u64>);

/// A latency summary in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percentiles {
    pub count: u64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Default for Latency {
    fn default() -> Self {
        // Three significant digits: a bucket is at most 0.1% wide.
        Latency(Histogram::new_with_bounds(1, 60_000_000, 3).expect("valid bounds"))
    }
}

impl Latency {
    pub fn record(&mut self, took: Duration) {
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        // Anything past the top counts as the top rather than being lost.
        self.0.saturating_record(micros.max(1));
    }

    pub fn percentiles(&self) -> Percentiles {
        if self.0.is_empty() {
            return Percentiles::default();
        }
        let ms = |micros: u64| micros as f64 / 1000.0;
        Percentiles {
            count: self.0.len(),
            p50: ms(self.0.value_at_quantile(0.50)),
            p90: ms(self.0.value_at_quantile(0.90)),
            p99: ms(self.0.value_at_quantile(0.99)),
            max: ms(self.0.max()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64) {
        assert!(
            (got - want).abs() <= want * 0.001,
            "{got} is not within 0.1% of {want}"
        );
    }

    #[test]
    fn percentiles_of_one_to_a_thousand_milliseconds() {
        let mut l = Latency::default();
        // Recorded in shuffled order: the histogram must not care.
        for i in 0..1000u64 {
            l.record(Duration::from_millis(i * 337 % 1000 + 1));
        }
        let p = l.percentiles();
        assert_eq!(p.count, 1000);
        close(p.p50, 500.0);
        close(p.p90, 900.0);
        close(p.p99, 990.0);
        close(p.max, 1000.0);
    }

    #[test]
    fn a_slow_tail_shows_in_p99_and_max_only() {
        let mut l = Latency::default();
        for _ in 0..985 {
            l.record(Duration::from_micros(2_500));
        }
        for _ in 0..15 {
            l.record(Duration::from_secs(4));
        }
        let p = l.percentiles();
        close(p.p50, 2.5);
        close(p.p90, 2.5);
        close(p.p99, 4000.0);
        close(p.max, 4000.0);
    }

    #[test]
    fn nothing_recorded_is_all_zero_and_too_slow_is_the_top() {
        assert_eq!(Latency::default().percentiles(), Percentiles::default());
        let mut l = Latency::default();
        l.record(Duration::from_secs(600));
        l.record(Duration::ZERO);
        let p = l.percentiles();
        assert_eq!(p.count, 2);
        close(p.max, 60_000.0);
        assert!(p.p50 <= 0.001, "{}", p.p50);
    }
}
