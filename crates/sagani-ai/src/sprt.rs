//! A sequential probability ratio test between two bots, as chess engines are tested: games
//! come in pairs (one deck, the seats swapped), and the test stops as soon as the results say
//! that the first bot is `elo1` or more stronger (H1) or at most `elo0` (H0), at error rates
//! `alpha` and `beta`. The log-likelihood ratio is the generalised SPRT's normal approximation
//! on the pairs' scores (the pentanomial model of fishtest, Van den Bergh), which counts the
//! correlation of two games on one deck.

/// The expected score of a player `elo` points stronger.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference an expected score stands for.
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Pairs by the first bot's points in them, in half points: 0, ½, 1, 1½, 2.
    pub pairs: [u64; 5],
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// H1: the first bot is at least `elo1` stronger.
    Better,
    /// H0: it is at most `elo0` stronger (so not the improvement hoped for).
    NotBetter,
    Undecided,
}

/// Bounds a test cannot run with.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("ELO0 must be below ELO1, not {0} and {1}")]
    Elo(f64, f64),
    #[error("alpha and beta are error rates between 0 and 0.5, not {0} and {1}")]
    ErrorRates(f64, f64),
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Elo(elo0, elo1));
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err(SprtError::ErrorRates(alpha, beta));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            pairs: [0; 5],
        })
    }

    /// A pair's result: the first bot's points in its two games (a win 1, a loss 0).
    pub fn add(&mut self, points: f64) {
        let half = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[half] += 1;
    }

    pub fn count(&self) -> u64 {
        self.pairs.iter().sum()
    }

    /// The pairs' mean score (0 to 1, per game) and its variance per pair.
    fn moments(&self) -> (f64, f64) {
        let n = self.count() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let mean = (0..5)
            .map(|k| self.pairs[k] as f64 * k as f64 / 4.0)
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|k| self.pairs[k] as f64 * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// The log-likelihood ratio of H1 against H0 so far (0 while the pairs do not vary).
    pub fn llr(&self) -> f64 {
        let (mean, var) = self.moments();
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        self.count() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The bounds the LLR is held to: H0 at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self) -> Verdict {
        let (lo, hi) = self.bounds();
        let llr = self.llr();
        if llr >= hi {
            Verdict::Better
        } else if llr <= lo {
            Verdict::NotBetter
        } else {
            Verdict::Undecided
        }
    }

    /// The first bot's Elo advantage with its 95% interval, from the pairs.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mean, var) = self.moments();
        let n = self.count().max(1) as f64;
        let half = 1.959_964 * (var / n).sqrt();
        (elo_of(mean), elo_of(mean - half), elo_of(mean + half))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_elo_invert_each_other() {
        assert!((score_of(0.0) - 0.5).abs() < 1e-12);
        assert!((score_of(200.0) - 0.7597).abs() < 1e-3);
        for e in [-300.0, -50.0, 0.0, 10.0, 120.0] {
            assert!((elo_of(score_of(e)) - e).abs() < 1e-6);
        }
    }

    #[test]
    fn a_clearly_better_bot_is_accepted_and_an_equal_one_rejected() {
        // 70% of pairs won outright: far above +20 Elo; the test accepts H1 soon.
        let mut t = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        let mut n = 0;
        while t.verdict() == Verdict::Undecided {
            n += 1;
            t.add(if n % 10 < 7 { 2.0 } else { 1.0 });
            assert!(n < 10_000);
        }
        assert_eq!(t.verdict(), Verdict::Better);
        assert!(t.llr() >= t.bounds().1);
        // Even pairs (each bot wins one game of each deck, or splits evenly): H0.
        let mut e = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        let mut n = 0;
        while e.verdict() == Verdict::Undecided {
            n += 1;
            e.add([0.0, 1.0, 2.0, 1.0][n % 4]);
            assert!(n < 100_000);
        }
        assert_eq!(e.verdict(), Verdict::NotBetter);
        let (elo, lo, hi) = e.elo();
        assert!(
            lo < elo && elo < hi && lo < 0.0 && 0.0 < hi,
            "{lo} {elo} {hi}"
        );
        // The bounds are the usual ones for 5% errors.
        let (lo, hi) = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.7, 0.05).is_err());
    }
}
